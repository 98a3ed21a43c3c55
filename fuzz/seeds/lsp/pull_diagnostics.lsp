Content-Length: 226

{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"processId":null,"rootUri":"file:///ws","capabilities":{"textDocument":{"diagnostic":{"dynamicRegistration":false}},"workspace":{"diagnostics":{"refreshSupport":true}}}}}Content-Length: 52

{"jsonrpc":"2.0","method":"initialized","params":{}}Content-Length: 542

{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///ws/train.py","languageId":"python","version":1,"text":"import torch\nfrom torch import nn\n\ndevice = torch.device(\"cuda\")\nx = torch.randn(4, 10)\nx.to(\"cuda\")\n\nclass Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.fc = nn.Linear(10, 2)\n\n    def forward(self, x):\n        return self.fc(x) + torch.zeros(2)\n\nmodel = Net()\nloss_fn = nn.CrossEntropyLoss(weight=torch.ones(2))\ny = model(x.to(device))\n"}}}Content-Length: 115

{"jsonrpc":"2.0","id":2,"method":"textDocument/diagnostic","params":{"textDocument":{"uri":"file:///ws/train.py"}}}Content-Length: 547

{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"file:///ws/train.py","version":2},"contentChanges":[{"text":"import torch\nfrom torch import nn\n\ndevice = torch.device(\"cuda\")\nx = torch.randn(4, 10)\nx = x.to(\"cuda\")\n\nclass Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.fc = nn.Linear(10, 2)\n\n    def forward(self, x):\n        return self.fc(x) + torch.zeros(2)\n\nmodel = Net()\nloss_fn = nn.CrossEntropyLoss(weight=torch.ones(2))\ny = model(x.to(device))\n"}]}}Content-Length: 138

{"jsonrpc":"2.0","id":3,"method":"textDocument/diagnostic","params":{"textDocument":{"uri":"file:///ws/train.py"},"previousResultId":"1"}}Content-Length: 138

{"jsonrpc":"2.0","id":4,"method":"textDocument/diagnostic","params":{"textDocument":{"uri":"file:///ws/train.py"},"previousResultId":"2"}}Content-Length: 38

{"jsonrpc":"2.0","id":1,"result":null}Content-Length: 44

{"jsonrpc":"2.0","id":5,"method":"shutdown"}Content-Length: 33

{"jsonrpc":"2.0","method":"exit"}