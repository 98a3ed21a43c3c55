Content-Length: 222

{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"processId":null,"rootUri":"file:///ws","capabilities":{"workspace":{"workspaceEdit":{"documentChanges":true},"didChangeWatchedFiles":{"dynamicRegistration":true}}}}}Content-Length: 52

{"jsonrpc":"2.0","method":"initialized","params":{}}Content-Length: 542

{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///ws/train.py","languageId":"python","version":1,"text":"import torch\nfrom torch import nn\n\ndevice = torch.device(\"cuda\")\nx = torch.randn(4, 10)\nx.to(\"cuda\")\n\nclass Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.fc = nn.Linear(10, 2)\n\n    def forward(self, x):\n        return self.fc(x) + torch.zeros(2)\n\nmodel = Net()\nloss_fn = nn.CrossEntropyLoss(weight=torch.ones(2))\ny = model(x.to(device))\n"}}}Content-Length: 234

{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"file:///ws/train.py","version":2},"contentChanges":[{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":0}},"text":"# edited\n"}]}}Content-Length: 219

{"jsonrpc":"2.0","id":2,"method":"textDocument/codeAction","params":{"textDocument":{"uri":"file:///ws/train.py"},"range":{"start":{"line":6,"character":0},"end":{"line":6,"character":12}},"context":{"diagnostics":[]}}}Content-Length: 251

{"jsonrpc":"2.0","id":3,"method":"textDocument/codeAction","params":{"textDocument":{"uri":"file:///ws/train.py"},"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":0}},"context":{"diagnostics":[],"only":["source.fixAll.devlint"]}}}Content-Length: 105

{"jsonrpc":"2.0","method":"textDocument/didSave","params":{"textDocument":{"uri":"file:///ws/train.py"}}}Content-Length: 106

{"jsonrpc":"2.0","method":"textDocument/didClose","params":{"textDocument":{"uri":"file:///ws/train.py"}}}Content-Length: 44

{"jsonrpc":"2.0","id":4,"method":"shutdown"}Content-Length: 33

{"jsonrpc":"2.0","method":"exit"}