Content-Length: 5

{"a":Content-Type: application/vscode-jsonrpc

{}Content-Length: -3

garbage without a header

Content-Length: 71

{"jsonrpc":"2.0","id":7,"method":"textDocument/codeAction","params":{}}Content-Length: 61

{"jsonrpc":"2.0","id":true,"method":"initialize","params":{}}Content-Length: 60

[{"jsonrpc":"2.0","id":8,"method":"initialize","params":{}}]Content-Length: 15

"just a string"Content-Length: 29

{"jsonrpc":"2.0","method":42}Content-Length: 57

{"jsonrpc":"2.0","id":9,"method":"initialize","params":3}Content-Length: 115

{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"processId":null,"rootUri":"file:///ws","capabilities":{}}}Content-Length: 52

{"jsonrpc":"2.0","method":"initialized","params":{}}Content-Length: 75

{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}Content-Length: 63

{"jsonrpc":"2.0","id":10,"method":"no/such/method","params":{}}Content-Length: 49

{"jsonrpc":"2.0","method":"no/such/notification"}Content-Length: 107

{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"file:///ws/train.py"}}}Content-Length: 190

{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"untitled:Untitled-1","languageId":"python","version":1,"text":"import torch\ntorch.zeros(2).to('cuda')\n"}}}Content-Length: 329

{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"untitled:Untitled-1","version":3},"contentChanges":[{"range":{"start":{"line":9,"character":0},"end":{"line":1,"character":0}},"text":"x"},{"range":{"start":{"line":0,"character":99},"end":{"line":0,"character":99}},"text":"\ud83d\ude00\r\n"}]}}Content-Length: 190

{"jsonrpc":"2.0","id":11,"method":"textDocument/codeAction","params":{"textDocument":{"uri":"untitled:Untitled-1"},"range":{"start":{"line":0,"character":0},"end":{"line":5,"character":0}}}}Content-Length: 72

{"jsonrpc":"2.0","id":12,"method":"textDocument/diagnostic","params":{}}Content-Length: 33

{"jsonrpc":"2.0","method":"exit"}Content-Length: 45

{"jsonrpc":"2.0","id":13,"method":"shutdown"}