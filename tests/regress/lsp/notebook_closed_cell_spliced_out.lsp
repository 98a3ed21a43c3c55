Content-Length: 222

{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"processId":null,"rootUri":"file:///ws","capabilities":{"workspace":{"workspaceEdit":{"documentChanges":true},"didChangeWatchedFiles":{"dynamicRegistration":true}}}}}Content-Length: 52

{"jsonrpc":"2.0","method":"initialized","params":{}}Content-Length: 473

{"jsonrpc":"2.0","method":"notebookDocument/didOpen","params":{"notebookDocument":{"uri":"file:///ws/nb.ipynb","notebookType":"jupyter-notebook","version":1,"cells":[{"kind":2,"document":"file:///ws/nb.ipynb#c1"},{"kind":2,"document":"file:///ws/nb.ipynb#c2"}]},"cellTextDocuments":[{"uri":"file:///ws/nb.ipynb#c1","languageId":"python","version":1,"text":"import torch\n"},{"uri":"file:///ws/nb.ipynb#c2","languageId":"python","version":1,"text":"x = torch.zeros(2)\n"}]}}Content-Length: 198

{"jsonrpc":"2.0","method":"notebookDocument/didChange","params":{"notebookDocument":{"uri":"file:///ws/nb.ipynb","version":2},"change":{"cells":{"structure":{"array":{"start":1,"deleteCount":1}}}}}}Content-Length: 114

{"jsonrpc":"2.0","method":"notebookDocument/didClose","params":{"notebookDocument":{"uri":"file:///ws/nb.ipynb"}}}Content-Length: 108

{"jsonrpc":"2.0","method":"textDocument/didSave","params":{"textDocument":{"uri":"file:///ws/nb.ipynb#c2"}}}Content-Length: 44

{"jsonrpc":"2.0","id":2,"method":"shutdown"}Content-Length: 33

{"jsonrpc":"2.0","method":"exit"}