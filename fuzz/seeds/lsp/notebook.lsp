Content-Length: 222

{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"processId":null,"rootUri":"file:///ws","capabilities":{"workspace":{"workspaceEdit":{"documentChanges":true},"didChangeWatchedFiles":{"dynamicRegistration":true}}}}}Content-Length: 52

{"jsonrpc":"2.0","method":"initialized","params":{}}Content-Length: 638

{"jsonrpc":"2.0","method":"notebookDocument/didOpen","params":{"notebookDocument":{"uri":"file:///ws/nb.ipynb","notebookType":"jupyter-notebook","version":1,"cells":[{"kind":2,"document":"file:///ws/nb.ipynb#c1"},{"kind":1,"document":"file:///ws/nb.ipynb#m1"},{"kind":2,"document":"file:///ws/nb.ipynb#c2"}]},"cellTextDocuments":[{"uri":"file:///ws/nb.ipynb#c1","languageId":"python","version":1,"text":"import torch\nx = torch.randn(3)\n"},{"uri":"file:///ws/nb.ipynb#m1","languageId":"markdown","version":1,"text":"# notes\n"},{"uri":"file:///ws/nb.ipynb#c2","languageId":"python","version":1,"text":"%matplotlib inline\nx.cuda()\n"}]}}Content-Length: 586

{"jsonrpc":"2.0","method":"notebookDocument/didChange","params":{"notebookDocument":{"uri":"file:///ws/nb.ipynb","version":2},"change":{"cells":{"structure":{"array":{"start":1,"deleteCount":1,"cells":[{"kind":2,"document":"file:///ws/nb.ipynb#c3"}]},"didOpen":[{"uri":"file:///ws/nb.ipynb#c3","languageId":"python","version":1,"text":"y = torch.zeros(3)\n"}],"didClose":[{"uri":"file:///ws/nb.ipynb#m1"}]},"textContent":[{"document":{"uri":"file:///ws/nb.ipynb#c2","version":2},"changes":[{"range":{"start":{"line":1,"character":0},"end":{"line":1,"character":0}},"text":"y + "}]}]}}}}Content-Length: 221

{"jsonrpc":"2.0","id":2,"method":"textDocument/codeAction","params":{"textDocument":{"uri":"file:///ws/nb.ipynb#c2"},"range":{"start":{"line":1,"character":0},"end":{"line":1,"character":8}},"context":{"diagnostics":[]}}}Content-Length: 113

{"jsonrpc":"2.0","method":"notebookDocument/didSave","params":{"notebookDocument":{"uri":"file:///ws/nb.ipynb"}}}Content-Length: 169

{"jsonrpc":"2.0","method":"notebookDocument/didClose","params":{"notebookDocument":{"uri":"file:///ws/nb.ipynb"},"cellTextDocuments":[{"uri":"file:///ws/nb.ipynb#c1"}]}}Content-Length: 44

{"jsonrpc":"2.0","id":3,"method":"shutdown"}Content-Length: 33

{"jsonrpc":"2.0","method":"exit"}