content-length: 75

{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}Content-Length: 52

{"jsonrpc":"2.0","method":"initialized","params":{}}Content-Length: 192

{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///ws/train.py","languageId":"python","version":1,"text":"import torch\nx = torch.ones(1)\nx.cuda()\n"}}}Content-Length: 50
Content-Type: application/vscode-jsonrpc; charset=utf-8

{"jsonrpc":"2.0","id":2,"method":"shutdown"}      Content-Length: 33

{"jsonrpc":"2.0","method":"exit"}