/* DL109 load-without-map-location: torch.load without map_location in code that must also run
 * without a GPU. */
#define _GNU_SOURCE /* memmem */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/file_name.h"
#include "core/files.h"
#include "dataflow/torch_api.h"
#include "rules/facts.h"
#include "rules/fixes.h"
#include "rules/options.h"

static const char doc[] =
    "## What it does\n"
    "Finds `torch.load(...)` without `map_location` in a file that checks\n"
    "`torch.cuda.is_available()` or selects a device (`torch.cuda.set_device`, `device_count`;\n"
    "not a project object's own `set_device` method), or whose `--device` option defaults to\n"
    "`\"cpu\"` (`add_argument(\"--device\", default=\"cpu\")`), or that uses a device another file of\n"
    "the project chooses between a GPU and the CPU (`from config import DEVICE`,\n"
    "`model_config.device`, or `device = get_device()` of a project helper that checks which is\n"
    "there), i.e. code\n"
    "written to run with or without a GPU. Test functions (`test_*`) are not counted either way:\n"
    "a test that needs a GPU says nothing about the rest of the file.\n\n"
    "## Why is this bad?\n"
    "`torch.load` restores every tensor on the device it was saved from. A checkpoint saved on a\n"
    "GPU fails to load on a CPU-only machine (*Attempting to deserialize object on a CUDA device\n"
    "but torch.cuda.is_available() is False*), and one saved from `cuda:1` lands on GPU 1 even\n"
    "when the model runs on GPU 0.\n\n"
    "## Example\n"
    "```python\n"
    "device = torch.device(\"cuda\" if torch.cuda.is_available() else \"cpu\")\n"
    "state = torch.load(\"checkpoint.pt\")\n"
    "```\n\n"
    "## Use instead\n"
    "```python\n"
    "state = torch.load(\"checkpoint.pt\", map_location=device)\n"
    "```\n\n"
    "## Fix safety\n"
    "The fix passes the device variable in scope (or `\"cpu\"`): tensors load where the code will\n"
    "use them.\n\n"
    "## When it does not fire\n"
    "- what is loaded is read as a NumPy array at once (`torch.load(p).numpy()`, also past\n"
    "  casts that keep the device: `torch.load(p).float().numpy()`), or an entry of it is\n"
    "  (`logs = torch.load(p)`, then `logs[\"winners\"].numpy()`, or `np.array(logs[i])`;\n"
    "  unpacked, `data, y = torch.load(p)` or into attributes of self read in another method,\n"
    "  each part read again is read so): that works for CPU tensors only, so the file holds\n"
    "  CPU tensors;\n"
    "- `map_location=` is given (or a second positional argument), or may be in a `**kwargs`\n"
    "  dict, or the other arm of the `if` around the load loads onto the host (`if use_gpu:\n"
    "  ... else: torch.load(p, map_location=\"cpu\")`, or a `lambda storage, loc: storage`;\n"
    "  or the other arm of a conditional expression, `torch.load(p) if self.cuda else\n"
    "  torch.load(p, map_location=\"cpu\")`: the branch decides where the file loads), or\n"
    "  the load is in a `try:` whose handler loads again with one (`except\n"
    "  RuntimeError: torch.load(path, map_location=\"cpu\")`);\n"
    "- the file never checks for a GPU outside its test functions and comments (a\n"
    "  `torch.device(\"cuda\" if ... else \"cpu\")` commented out picks nothing, nor does a\n"
    "  GPU count in a log message, nor does one stored under a name nothing reads but a log\n"
    "  line, `self.n_gpus = torch.cuda.device_count()`, nor, in code that moves its data\n"
    "  with `.cuda()`, one that only tells one GPU from several, `torch.cuda.device_count() >\n"
    "  1` (or `== 1`) or a rank modulo it, `rank % ngpus == 0`, or the GPU ids it lists, `range(n_gpus)`\n"
    "  (the replicas of `nn.parallel.replicate`); nor the ids of the GPUs a run is given,\n"
    "  listed, `list(range(torch.cuda.device_count()))`, or checked, `assert int(d) <\n"
    "  torch.cuda.device_count()`, in a file that moves nothing itself (no `.cuda()`, `.to()`)\n"
    "  (TorchSSC's `parse_devices`); nor a count only multiplied, `(time.time() - t0) *\n"
    "  torch.cuda.device_count()` (GPU-seconds), which is 0 without a GPU; nor several such counts\n"
    "  together, each\n"
    "  function's own under one name;\n"
    "  `dist.is_available()` asks about\n"
    "  torch.distributed; a timing helper's\n"
    "  `if torch.cuda.is_available(): torch.cuda.synchronize()`, or a seeding one's\n"
    "  `torch.cuda.manual_seed_all(seed)`, its only check (also joined with a count, `if\n"
    "  torch.cuda.device_count() > 0 and torch.cuda.is_available():`), picks none either; nor,\n"
    "  in a file whose every device is a GPU written out, `torch.device(\"cuda:0\")`, and that\n"
    "  names the CPU nowhere, a GPU count or an availability check stored only to be printed,\n"
    "  `USE_CUDA = torch.cuda.is_available()`;\n"
    "  `torch.device(\"cpu\" if args.no_cuda else \"cuda\")` does), or asserts that one is\n"
    "  there (`assert torch.cuda.is_available()`; before the load, `assert use_gpu` of\n"
    "  `use_gpu = torch.cuda.is_available()`) or builds a Lightning trainer that needs one\n"
    "  (`accelerator=\"gpu\"`, `devices=torch.cuda.device_count()` only sizing the job);\n"
    "- inside test functions (`test_*`; in a test file, `test*`), their helpers\n"
    "  (`_test_model`) and `unittest.TestCase` methods; a script's `def test(args, model)`,\n"
    "  which evaluates the checkpoint it loads, is no test;\n"
    "- in a function that builds a TensorRT engine (`TRTModule()`), which runs only on a GPU;\n"
    "- in the branch of a check that a GPU is there (`if torch.cuda.is_available():` or `if\n"
    "  torch.cuda.device_count() > 0:`, also\n"
    "  with a flag, `if torch.cuda.is_available() and args.use_gpu:`, or the `else` of `if\n"
    "  args.disable_cuda or not torch.cuda.is_available():`, or `if\n"
    "  use_cuda:` with `use_cuda = not args.no_cuda and torch.cuda.is_available()`, or `if\n"
    "  device == 'cuda':` of the device chosen), which runs\n"
    "  only with one, or after a check whose other branch stops the program (`if not\n"
    "  torch.cuda.is_available(): raise RuntimeError(\"GPU required\")`, or `assert 0, ...`;\n"
    "  also `if args.cuda and not torch.cuda.is_available(): raise` after `args.cuda = True`),\n"
    "  or in a statement that moves what it loads to CUDA (`torch.load(p).cuda()`), or after\n"
    "  a `.cuda()`\n"
    "  (or a `.to(\"cuda\")` written out, or a `.to(device)` where the function binds `device`\n"
    "  only to a GPU, `torch.device('cuda:{}'.format(rank))`, or last binds it so before the\n"
    "  move, `device = \"cuda\"` after `device = \"cuda\" if ... else \"cpu\"`; a name the\n"
    "  function does not bind, where the module binds it only so: `if\n"
    "  torch.backends.mps.is_available(): mps_device = torch.device(\"mps\")`, Apple's GPU\n"
    "  counting as one; or a\n"
    "  `torch.load(p, map_location=\"cuda:0\")`)\n"
    "  (or `torch.cuda.set_device(rank)`, `torch.cuda.current_device()`,\n"
    "  `torch.cuda.synchronize()`, a query of the GPU's properties\n"
    "  (`torch.cuda.get_device_properties(device)`, `get_device_name`,\n"
    "  `get_device_capability`), or\n"
    "  `dist.init_process_group(\"nccl\")` or `init_process_group(backend=\"nccl\")`: NCCL runs\n"
    "  only on GPUs)\n"
    "  the function runs whatever the machine (`model = nn.DataParallel(model).cuda()`, or\n"
    "  `nn.DataParallel(net.cuda())`, the argument moved first; not in a\n"
    "  branch, a conditional expression or a `try:`; or one in each branch of an `if`/`else`,\n"
    "  `model.cuda(args.gpu)` and `model.cuda()`, or in the body of an `if` on a switch that no\n"
    "  command line turns off (`if opt.cuda:` of `add_argument('--cuda', action='store_true',\n"
    "  default=True)`); or a call of a project function that does so\n"
    "  on every path before it returns, `net = create_model()`, or one whose device parameter\n"
    "  defaults to a GPU, left out by the call, and which moves to it first,\n"
    "  `evaluate_task(model, loader)` of `def evaluate_task(model, loader, device=\"cuda:0\"):\n"
    "  model = model.to(device)`), which fails without a GPU; or\n"
    "  before such a `.cuda()` that the function goes on to on every path (no `return` between:\n"
    "  `state = torch.load(p)`, then `model = model.cuda()`, or `multiprocessing.spawn(work,\n"
    "  ...)` of workers that each do so first, or the `if __name__ == \"__main__\":` block of a\n"
    "  script no other file imports), a map_location changing nothing;\n"
    "  or\n"
    "  in a function of a script (or notebook) that no other file imports (or a method of a\n"
    "  class it defines, reached by the method's name), whose top level or\n"
    "  `if __name__ == \"__main__\":` block calls `torch.cuda.set_device(i)` (also as\n"
    "  `cuda.set_device(i)` after `from torch import cuda`; or `.cuda()`; or\n"
    "  makes CUDA the default, `torch.set_default_device(\"cuda\")` or nerf-pytorch's\n"
    "  `torch.set_default_tensor_type('torch.cuda.FloatTensor')`; or a function of its own that\n"
    "  does so before it returns, `device = gpu_setup()`) before anything that leads to it,\n"
    "  or calls (or spawns, `mp.spawn(main, ...)`) a function of its own (`main()`) that does\n"
    "  so first; or in a function nested in\n"
    "  one that did so before defining it (plug-and-play's `model = load_model_from_config(...)`,\n"
    "  which ends with `model.cuda()`, then `def load_target_features():`); or in a function or\n"
    "  class defined after a statement at the top of the file that fails without a GPU\n"
    "  (`torch.cuda.set_device(\"cuda:0\")`): the file cannot even be imported without one;\n"
    "  or in a method (not a static or class method) of a class whose `__init__` fails so\n"
    "  first (`self.encoder.cuda()`, or a method of its own it calls first that does,\n"
    "  `self._setup_()` calling `torch.cuda.set_device(...)`): no instance is made without a\n"
    "  GPU;\n"
    "- the checkpoint was written by the same run: a loop before the load saves under one\n"
    "  template that the load fills with other values (each epoch's\n"
    "  `args.save + \"_epoch_\" + str(i) + \".pth\"`, then the best one's\n"
    "  `args.save + \"_epoch_\" + str(best) + \".pth\"`); or `torch.save(..., path)` (or a\n"
    "  helper named\n"
    "  for saving, `utils.save_on_master(state, path)`, or a project function that saves to\n"
    "  the path it is handed, `train(model, loader, save_path=args.ckpt)`, or an object of a\n"
    "  project class that keeps the path it is handed and saves to it\n"
    "  (`EarlyStopping(args.checkpoint_path)`, loaded by that path or by the attribute it keeps\n"
    "  it in, `torch.load(early_stopping.path)`; or a name prefix it saves under a template,\n"
    "  `'%s.pt' % self.mn_prefix`, loaded as `'%s.pt' % prefix`), or a project function that\n"
    "  writes the\n"
    "  file named itself: ImageNet's `save_checkpoint(state, is_best)` copying to\n"
    "  `'model_best.pth.tar'`) earlier in the\n"
    "  same function with the path written the same way (a leading `./`, a join onto\n"
    "  `os.getcwd()` or the quotes aside,\n"
    "  or built from literals to the same string), or from the\n"
    "  same template\n"
    "  (`'{}.pkl'.format(epoch)` saved, `'{}.pkl'.format(best_epoch)` loaded, or a join,\n"
    "  `'m_' + str(epoch) + '.pth'` saved and `'m_' + str(idx) + '.pth'` loaded, or a literal\n"
    "  that fills an f-string's fields with numbers, `f\"lstm_epoch{epoch}.pth\"` saved and\n"
    "  `\"lstm_epoch100.pth\"` loaded, also through\n"
    "  names bound to them, `save_path = os.path.join(d, f\"data_{rank}.pkl\")` saved and\n"
    "  `load_path = os.path.join(d, f\"data_{r}.pkl\")` loaded; or one path\n"
    "  helper of the file's own,\n"
    "  `get_checkpoint_path(epoch)` and `get_checkpoint_path(best_epoch)`), and not bound anew\n"
    "  since (the best epoch saved, then reloaded), or a copy of such a save\n"
    "  (`shutil.copy(latest, best)` then `torch.load(best)`), or Lightning's\n"
    "  `checkpoint_callback.best_model_path`, or ignite's `handler.last_checkpoint`; a path\n"
    "  held in a name counts as what the name was\n"
    "  last bound to (`best_path = f'{run}/{best_epoch}.pt'`), as does a save to a name bound\n"
    "  to the path the load writes out (`file = d / 'x.pt'`, `torch.save(t, file)`, then\n"
    "  `torch.load(d / 'x.pt')`) or one in a function nested beside the load's in the same\n"
    "  function (ignite's handlers, `@trainer.on(...)`), and a template's save anywhere\n"
    "  in the loop around the load counts, made by an earlier iteration (early stopping:\n"
    "  `if stop: load(...) else: save(...)`); so does a save helper handed the folder the load\n"
    "  joins a name onto (`save_checkpoint(model, optimizer, epoch, args.save)`, then\n"
    "  `torch.load(os.path.join(args.save, 'model.pt'))`), or a project function that saves\n"
    "  into the folder it is handed (`train_model(model, ..., ckpt_path)`, whose `torch.save`\n"
    "  joins a name onto it; or an object's `__call__`, `early_stopping(loss, model, path)`),\n"
    "  before the load or in its loop; or a function of the file, called before the load,\n"
    "  that saves to the module's constant path the load reads (`torch.save(sd, SAVE_PATH)` in\n"
    "  `train()`, then `torch.load(SAVE_PATH)`); or a project function (also called by its\n"
    "  package path, `pkg.deep.train.loop(...)`; its save path inside `os.path.expanduser(...)`\n"
    "  counting as that path), called before the\n"
    "  load, whose save path reads as the load's once its parameters are written as the call\n"
    "  hands them (`train(model, model_name=name, model_path=path)` saving to `model_path +\n"
    "  model_name + '.pth'`, then `torch.load(path + name + '.pth')`); or a top-level function\n"
    "  the script calls, each time, after calling another that saves to the path\n"
    "  (`evaluate(args)`, then `visualize(args)`); or the listing of a folder the function (its loop) saves into,\n"
    "  `torch.load(save_dir + os.listdir(save_dir)[0])`; or a folder the\n"
    "  function has just created\n"
    "  (`with TemporaryDirectory() as temp:`, `tempfile.mkdtemp()`), whose files this run wrote;\n"
    "- the bytes are in memory, written by this process or a rank of the same job:\n"
    "  `torch.load(io.BytesIO(buf))` (not of `f.read()`), a name bound to an empty `BytesIO()`\n"
    "  in the function, a helper's parameter named `buffer`; or in an anonymous temporary\n"
    "  file the function filled (`with tempfile.TemporaryFile(\"r+b\") as f:`);\n"
    "- the file writes that checkpoint itself from the CPU: `torch.save(net.cpu().state_dict(),\n"
    "  save_path)` anywhere in it, or of a tensor made there (`torch.from_numpy(a)`, a factory\n"
    "  with no device or `device=\"cpu\"`, `torch.stack` of parts made so, a name bound to one\n"
    "  (before the save's block too: `x = torch.from_numpy(a)`, then `if save: torch.save(x,\n"
    "  p)`),\n"
    "  a dict of\n"
    "  them, a whole `DataLoader` over a project dataset whose class names no device, built\n"
    "  from host data: NumPy or pandas values, or names bound in a function that names no\n"
    "  device, moves nothing and loads nothing), or of an object\n"
    "  moved to the CPU just before (`model.cpu()`, `self.set_device(torch.device(\"cpu\"))`,\n"
    "  then `torch.save(self, path)` or of its `state_dict()`), or a dict whose every entry a\n"
    "  loop moved (`for k in sd.keys(): sd[k] = sd[k].cpu()`), the load's path written the\n"
    "  same way (`save_path`), or the same template with its field written with `%` once and\n"
    "  with `.format` once (`'/%s_net.pth' % epoch`, `'/{}_net.pth'.format(n)`), or the same\n"
    "  string once written out (`'{}.pkl'.format(d +\n"
    "  \"/tsp20\")` with `d = os.path.join(\"data\")`, then `torch.load(\"data/tsp20.pkl\")`,\n"
    "  or the default of the loading function's path parameter, `def load(path=\"feats.pt\")`);\n"
    "  or a class's own `save` method (`torch.save(self.state_dict(), PATH)`) that the file\n"
    "  calls only right after moving the object to the CPU (`self.net.cpu()`, then\n"
    "  `self.net.save(NET_PATH)`), read back by a method of that class; or another file of\n"
    "  the project writes it so, the two paths ending with the same file name written out\n"
    "  (`torch.save(torch.from_numpy(x), folder + \"train_x.pty\")` in generate_data.py, then\n"
    "  `torch.load(folder + \"train_x.pty\")`), or saves an instance of a project class that is\n"
    "  not a module and names no device, from a file that names none either (a preprocessing\n"
    "  script's `torch.save(Corpus(path), os.path.join(opts.out, \"trainCorpus.pt\"))`, or a\n"
    "  PyTorch Geometric graph, `Data(x=x, edge_index=edge_index)`, such a file builds), or a\n"
    "  torchvision dataset (`torch.save(CIFAR10(root, train=True), \"data/train.pt\")`); an\n"
    "  option of the file's command line counts as its default written out, on either side\n"
    "  (`torch.load(opts.trainCorpusPath)` with `add_argument(\"-trainCorpusPath\",\n"
    "  default=\"data/trainCorpus.pt\")`), and a function's parameter as what every call in\n"
    "  its file hands it (`make_eval(args.graph_file)`);\n"
    "- a cache: the function loads the file if it exists and otherwise builds and saves it under\n"
    "  the same path (`cached_features_file`), so an earlier run on this machine wrote it, or\n"
    "  loads it in a `try:` whose `except` builds and saves it (`torch.save(bert, bert_path)`);\n"
    "  what it saves there being data, not a model's or an optimizer's state (a run resumed\n"
    "  from its checkpoint, which it saves again later, is reported), and a path written out\n"
    "  counting where the existence test is of the same code\n"
    "  (`if os.path.exists(cached_file + \"_\" + str(epoch)):`); or\n"
    "  the other arm of the `if` around the load builds that data and saves it there (`if\n"
    "  use_saved_data: ds = torch.load(p) else: ...; torch.save(ds, p)`);\n"
    "- a file the load's class writes itself: another method of it saves to the same path,\n"
    "  written the same way (`torch.save(self.collate(data_list), self.processed_paths[0])` in\n"
    "  a PyG dataset's `process()`, read back by `torch.load(self.processed_paths[0])`; an\n"
    "  early stopper's `torch.save(model.state_dict(), self.path)` and its own reload; a path\n"
    "  written out, `\"best.pt\"`, or one handed to a method of the class that saves to it,\n"
    "  `self._save(os.path.join(self.folder, \"best.pt\"))`, or one template filled with the\n"
    "  same values of self and numbers each method counts its own way: a checkpoint per epoch\n"
    "  saved as `\"{}/model_{}.tar\".format(self.working_dir, i + 1)` and read back with\n"
    "  `epoch`);\n"
    "- a checkpoint published the way torch.hub names what it downloads, a dash and the start\n"
    "  of its SHA-256 after the name (`\"resnet34-333f7ec4.pth\"`, torchvision's model zoo):\n"
    "  weights published for anyone to load hold CPU tensors;\n"
    "- the file holds no tensors: settings or a vocabulary by its name (`\"model_args.pth\"`,\n"
    "  `\"vocab.pt\"`,\n"
    "  `\"training_args.bin\"`, a path held in a name for a configuration, `cfg.config_path`,\n"
    "  that names no weights), Hugging Face Trainer's scheduler, grad scaler and RNG states\n"
    "  (`\"scheduler.pt\"`, `\"scaler.pt\"`, `\"rng_state_{rank}.pth\"`), or a file name the same\n"
    "  file saves a scheduler's or a grad scaler's `state_dict()`, the RNG states, the\n"
    "  command line's options (`torch.save(opt, ...)`) or a dict of counters (`{'epoch':\n"
    "  epoch}`, or of the options' settings, `{'hidden': args.hidden}`) or what a function of\n"
    "  the project returns that holds only strings and numbers\n"
    "  (`torch.save(make_examples(d), path)`) under; the name written out (in\n"
    "  `open(path, \"rb\")` too, and through the file `with open(...) as f:` opens, on\n"
    "  either side) or held by a module-level constant\n"
    "  (`SCHEDULER_NAME = \"scheduler.pt\"`); or a NumPy array, what\n"
    "  `torch.from_numpy(torch.load(path))` loads;\n"
    "- under a switch that is off as shipped: `load_model = False`, then `if load_model:` (or\n"
    "  `if load_model is True:`), or a constant set False at the top of the file that no\n"
    "  function sets through `global`; or in the `else` of one left on (`is_train = True`,\n"
    "  then `if is_train: ... else: torch.load(...)`).\n";

/* While a load is judged against the saves of another file of the project
 * (written_from_the_cpu_by_another_file), that file's model: what the helpers below read as
 * "the file" (its statements, its text) until the judgment is done. Per thread, as files are
 * checked in parallel. */
static _Thread_local const DlModuleIR *other_file;

static const DlModuleIR *rule_module(DlRuleContext *ctx) {
    return other_file ? other_file : dl_rule_module(ctx);
}

static const char *rule_text(DlRuleContext *ctx, DlSpan span) {
    return other_file ? dl_rule_text_in(ctx, other_file, span) : dl_rule_text(ctx, span);
}

/* `accelerator="gpu"` (or "cuda") written out: a Lightning trainer that needs a GPU. */
static bool requires_a_gpu_accelerator(DlRuleContext *ctx) {
    static const char *const forms[] = {"accelerator=\"gpu\"", "accelerator='gpu'",
                                        "accelerator=\"cuda\"", "accelerator='cuda'", NULL};
    for (const char *const *f = forms; *f; f++)
        if (dl_rule_file_mentions(ctx, *f)) return true;
    return false;
}

/* Test code: a test function (`test_*`), a helper of tests (`_test_segmentation_model`), a
 * method of a `unittest.TestCase`, or a function nested in one of those (torchvision's
 * `check_out`, which reads the expected output the harness recorded); in a test file, any
 * function named for tests (`testModel`). Not a training script's `def test(args, model)`,
 * which evaluates a checkpoint it loads (PAConv's, CurveNet's). */
static bool in_test_code(DlRuleContext *ctx, const DlFunction *fn) {
    bool test_file = dl_path_is_a_test_file(dl_rule_source(ctx)->path);
    for (int depth = 0; fn && depth < 16; depth++, fn = fn->parent) {
        if (strncmp(fn->name, "test_", 5) == 0 || strncmp(fn->name, "_test", 5) == 0 ||
            (test_file && strncmp(fn->name, "test", 4) == 0))
            return true;
        for (uint32_t b = 0; fn->owner && b < fn->owner->base_count; b++) {
            const DlExpr *base = fn->owner->bases[b];
            if ((base->kind == DL_EX_NAME || base->kind == DL_EX_ATTR) && base->name &&
                strcmp(base->name, "TestCase") == 0)
                return true;
        }
    }
    return false;
}

/* Every `.is_available()` of the file only guards housekeeping that picks no device: a
 * synchronize, YOLOv5's `time_sync()` (`if torch.cuda.is_available():
 * torch.cuda.synchronize()`, then the clock: Lite-Mono's evaluate_depth.py, which moves its
 * encoder with `.cuda()` whatever the machine), seeding (`torch.cuda.manual_seed_all(seed)`,
 * PuzzleCAM's `set_seed`) or emptying the cache. */
/* `device = 'cuda:0'`, then `device = torch.device(device)`: every top-level binding of
 * `name` is a CUDA string written out or `torch.device` of the name itself. */
static bool top_level_name_only_cuda(DlRuleContext *ctx, const char *name) {
    const DlBlock *body = &rule_module(ctx)->body;
    bool literal = false;
    for (uint32_t i = 0; i < body->count; i++) {
        const DlStmt *s = body->items[i];
        if (s->kind != DL_ST_ASSIGN || s->target_count != 1 ||
            s->targets[0]->kind != DL_EX_NAME || strcmp(s->targets[0]->name, name) != 0)
            continue;
        const DlExpr *v = s->value;
        const DlExpr *a = v && v->kind == DL_EX_CALL ? dl_ir_positional(v, 0) : NULL;
        if (v && v->kind == DL_EX_STRING && v->name && strncmp(v->name, "cuda", 4) == 0)
            literal = true;
        else if (!(a && a->kind == DL_EX_NAME && strcmp(a->name, name) == 0 && v->object &&
                   v->object->kind == DL_EX_ATTR && strcmp(v->object->name, "device") == 0))
            return false;
    }
    return literal;
}

static bool on_a_comment_line(const char *text, const char *p);

static bool checks_a_gpu_only_for_housekeeping(DlRuleContext *ctx) {
    /* a device built at run time (`torch.device(args.device)`, norse's MNIST task, whose check
     * only seeds the GPU) is a choice all the same; `torch.device('cuda:0')` written out is
     * none (PSICHIC's notebook, whose check only empties the cache) */
    const DlSource *src = dl_rule_source(ctx);
    const char *p = src->text, *end = src->text + src->len;
    static const char built[] = "torch.device(";
    for (const char *d = p; (d = memmem(d, (size_t)(end - d), built, sizeof built - 1)) != NULL;) {
        d += sizeof built - 1;
        bool literal_cuda = (size_t)(end - d) > 5 && (d[0] == '"' || d[0] == '\'') &&
                            memcmp(d + 1, "cuda", 4) == 0;
        const char *n = d;
        while (n < end && dl_source_name_byte(*n)) n++;
        if (!literal_cuda && !(n > d && n < end && *n == ')' &&
                               top_level_name_only_cuda(ctx, dl_arena_strndup(dl_rule_arena(ctx), d,
                                                                              (size_t)(n - d)))))
            return false;
    }
    static const char mark[] = "cuda.is_available()";
    bool any = false;
    while ((p = memmem(p, (size_t)(end - p), mark, sizeof mark - 1)) != NULL) {
        p += sizeof mark - 1;
        /* (`# print(torch.cuda.is_available())`, commented out: no check at all) */
        if (on_a_comment_line(src->text, p - (sizeof mark - 1))) continue;
        const char *q = p;
        while (q < end && (*q == ' ' || *q == '\t')) q++;
        if (q >= end || *q != ':') return false;
        q++;
        while (q < end && (*q == ' ' || *q == '\t' || *q == '\n' || *q == '\r')) q++;
        static const char cuda[] = "torch.cuda.";
        if ((size_t)(end - q) < sizeof cuda - 1 || memcmp(q, cuda, sizeof cuda - 1) != 0)
            return false;
        q += sizeof cuda - 1;
        static const char *const chores[] = {"synchronize(", "manual_seed_all(", "manual_seed(",
                                             "empty_cache(", NULL};
        bool chore = false;
        for (const char *const *c = chores; *c && !chore; c++)
            chore = (size_t)(end - q) >= strlen(*c) && memcmp(q, *c, strlen(*c)) == 0;
        if (!chore) return false;
        any = true;
    }
    return any;
}

/* Past the next `call` (`n` bytes of text such as "torch.device(") at or after `p` in the
 * file's code, not after a `#` on its line: where its arguments start; NULL when there is none. */
static const char *next_call_in_code(const DlSource *src, const char *p, const char *call,
                                     size_t n) {
    const char *end = src->text + src->len;
    while ((p = memmem(p, (size_t)(end - p), call, n)) != NULL) {
        const char *line = dl_source_line_start_of(src->text, p);
        p += n;
        if (!memchr(line, '#', (size_t)(p - line))) return p;
    }
    return NULL;
}

/* A command-line option for the device whose default is the CPU: `p.add_argument("--device",
 * type=str, default="cpu")` (meshgraphnet-welding's rollout script): the script runs on the
 * CPU unless told otherwise, so the checkpoints it loads must load there. */
static bool device_option_defaults_to_the_cpu(DlRuleContext *ctx) {
    static const char call[] = "add_argument(";
    const DlSource *src = dl_rule_source(ctx);
    const char *p = src->text, *end = src->text + src->len;
    while ((p = next_call_in_code(src, p, call, sizeof call - 1)) != NULL) {
        const char *close = p;
        for (int depth = 1; close < end && depth > 0 && close - p < 400; close++)
            depth += *close == '(' ? 1 : *close == ')' ? -1 : 0;
        size_t n = (size_t)(close - p);
        bool device = memmem(p, n, "\"--device\"", 10) || memmem(p, n, "'--device'", 10);
        bool cpu = memmem(p, n, "default=\"cpu\"", 13) || memmem(p, n, "default='cpu'", 13);
        if (device && cpu) return true;
    }
    return false;
}

/* A `torch.device(...)` picking the CPU or a GPU by a flag, on one line: Lite-Mono's trainer,
 * `torch.device("cpu" if self.opt.no_cuda else "cuda")`, whose only `is_available()` guards a
 * synchronize; QANet's `torch.device("cuda" if with_cuda else "cpu")`. (Not a device string
 * alone, `device='cpu' if cpu else 'cuda'`: what a flag named for the CPU means, the branches
 * it guards do not tell.) */
static bool chooses_the_cpu_by_a_flag(DlRuleContext *ctx) {
    static const char call[] = "torch.device(";
    const DlSource *src = dl_rule_source(ctx);
    const char *p = src->text, *end = src->text + src->len;
    /* not a choice commented out (GCPNET's data files pin the CPU under one), nor one in a
     * comment after the call */
    while ((p = next_call_in_code(src, p, call, sizeof call - 1)) != NULL) {
        const char *eol = memchr(p, '\n', (size_t)(end - p));
        size_t n = (size_t)((eol ? eol : end) - p);
        const char *comment = memchr(p, '#', n);
        if (comment) n = (size_t)(comment - p);
        if (memmem(p, n, " if ", 4) && (memmem(p, n, "\"cpu\"", 5) || memmem(p, n, "'cpu'", 5)))
            return true;
    }
    return false;
}

/* Is `p` on a line of `text` that holds only a comment? */
static bool on_a_comment_line(const char *text, const char *p) {
    const char *q = dl_source_line_start_of(text, p);
    while (q < p && (*q == ' ' || *q == '\t')) q++;
    return *q == '#';
}

/* Is `p` on a line that logs (`print(...)`, `logger.info(...)`, `root_logger.info("Training
 * with " + str(gpu_count) + " GPUs")`), after that call's opening? */
static bool on_a_logging_line(const char *text, const char *p) {
    const char *q = dl_source_line_start_of(text, p);
    static const char *const calls[] = {"print(", ".info(", ".debug(", ".warning(", ".log(",
                                        NULL};
    for (const char *const *c = calls; *c; c++) {
        const char *at = memmem(q, (size_t)(p - q), *c, strlen(*c));
        if (at && (**c == '.' || at == q || !dl_source_name_byte(at[-1]))) return true;
    }
    return false;
}

/* Does the count written at `p` (`device_count()`, or a name holding it) only tell one GPU from
 * several: `> 1`, `>= 2`, `== 1` (whether to wrap the model in DataParallel: prnet's), a rank modulo
 * it (`args.rank % ngpus_per_node == 0`, which rank saves: SPICE's), or the GPU ids it counts
 * (`range(n_gpus)`)? Neither picks between a
 * GPU and the CPU, in code that moves its data with `.cuda()` (`gpu_code`); where the device
 * comes from elsewhere (yolov5's resume script reads it from the run's options), one GPU or
 * several is one branch, the CPU another. `after` is the first byte after the count. */
static bool tells_one_gpu_from_many(const char *text, const char *p, const char *after,
                                    const char *end, bool gpu_code) {
    if (!gpu_code) return false;
    const char *q = after;
    while (q < end && (*q == ' ' || *q == '\t'))
        q++;
    if (q + 1 < end && q[0] == '>' && q[1] != '=') {
        for (q++; q < end && (*q == ' ' || *q == '\t'); q++) {
        }
        if (q < end && *q == '1' && (q + 1 == end || !dl_source_name_byte(q[1]))) return true;
    }
    if (q + 2 < end && q[0] == '>' && q[1] == '=') {
        for (q += 2; q < end && (*q == ' ' || *q == '\t'); q++) {
        }
        if (q < end && *q == '2' && (q + 1 == end || !dl_source_name_byte(q[1]))) return true;
    }
    /* `== 1`: the single-GPU trainer, else the multi-GPU one (CSPN_monodepth's main) */
    if (q + 2 < end && q[0] == '=' && q[1] == '=') {
        const char *r = q + 2;
        while (r < end && (*r == ' ' || *r == '\t'))
            r++;
        if (r < end && *r == '1' && (r + 1 == end || !dl_source_name_byte(r[1]))) return true;
    }
    const char *b = p;
    while (b > text && (b[-1] == ' ' || b[-1] == '\t'))
        b--;
    /* `list(range(n_gpus))`, the replicas' GPU ids (OC-CSE's `nn.parallel.replicate`) */
    if (b - text >= 6 && memcmp(b - 6, "range(", 6) == 0 &&
        (b - text == 6 || !dl_source_name_byte(b[-7])) && q < end && *q == ')')
        return true;
    return b > text && b[-1] == '%';
}

/* Is the name at `p` (n bytes) what a line stores a GPU count in: `n_gpu =
 * torch.cuda.device_count()` (`self.` before it too)? */
static bool stores_a_count(const char *text, const char *p, size_t n, const char *end) {
    const char *q = dl_source_line_start_of(text, p);
    while (q < p && (*q == ' ' || *q == '\t'))
        q++;
    if (p - q == 5 && memcmp(q, "self.", 5) == 0) q += 5;
    if (q != p) return false;
    for (q = p + n; q < end && (*q == ' ' || *q == '\t'); q++) {
    }
    if (q + 1 >= end || q[0] != '=' || q[1] == '=') return false;
    for (q++; q < end && (*q == ' ' || *q == '\t'); q++) {
    }
    while (q < end && (dl_source_name_byte(*q) || *q == '.') && *q != '\n') {
        if (end - q > 14 && memcmp(q, ".device_count(", 14) == 0) return true;
        q++;
    }
    return false;
}

/* How many times `name` (n bytes) is read in `text`: whole words, comment lines, what logging
 * lines print, tests of one GPU against several and the lines that store a count under it
 * (each function's own `ngpus_per_node = torch.cuda.device_count()`) aside. */
static size_t word_count(const char *text, size_t len, const char *name, size_t n, bool gpu_code) {
    size_t count = 0;
    const char *end = text + len;
    for (const char *p = text; (p = memmem(p, (size_t)(end - p), name, n)) != NULL; p += n)
        /* not `torch.cuda.device_count()` itself where the count is stored under the same
         * name (LaFTer's `device_count = torch.cuda.device_count()`): a call, no read */
        if ((p == text || !dl_source_name_byte(p[-1])) &&
            (p + n == end || !dl_source_name_byte(p[n])) && !on_a_comment_line(text, p) &&
            !(p > text && p[-1] == '.' && p + n < end && p[n] == '(') &&
            !on_a_logging_line(text, p) &&
            !tells_one_gpu_from_many(text, p, p + n, end, gpu_code) &&
            !stores_a_count(text, p, n, end))
            count++;
    return count;
}

/* Is what stands at `p` (on the line starting at `line`) formatted into a string: after `"..."
 * %`, inside `.format(`, or in an f-string's braces? */
static bool formatted_into_text(const char *line, const char *p) {
    size_t n = (size_t)(p - line);
    if (memmem(line, n, ".format(", 8)) return true;
    /* inside the string itself (`'torch.cuda.device_count() = %d'`): an odd count of quotes */
    unsigned singles = 0, doubles = 0;
    for (const char *q = line; q < p; q++)
        singles += *q == '\'', doubles += *q == '"';
    if (singles % 2 || doubles % 2) return true;
    const char *start = p; /* back over `torch.cuda` */
    while (start > line && (dl_source_name_byte(start[-1]) || start[-1] == '.'))
        start--;
    for (const char *q = start; q > line; q--) { /* `'...' % torch.cuda.device_count()` */
        if (q[-1] == ' ' || q[-1] == '\t' || q[-1] == '(') continue;
        if (q[-1] != '%') break;
        const char *r = q - 1;
        while (r > line && r[-1] == ' ')
            r--;
        return r > line && (r[-1] == '"' || r[-1] == '\'');
    }
    const char *f = memmem(line, n, "f\"", 2);
    if (!f) f = memmem(line, n, "f'", 2);
    return f && memchr(f, '{', (size_t)(p - f));
}

/* Is the `.device_count(` at `p` (on the line starting at `line`) the argument of `range(`
 * (`range(torch.cuda.device_count())`), or on an `assert` line? */
static bool lists_or_checks_gpu_ids(const char *line, const char *p) {
    const char *q = line;
    while (*q == ' ' || *q == '\t')
        q++;
    if (strncmp(q, "assert ", 7) == 0) return true;
    const char *name = p;
    while (name > line && (isalnum((unsigned char)name[-1]) || name[-1] == '_' || name[-1] == '.'))
        name--;
    return name - line >= 6 && strncmp(name - 6, "range(", 6) == 0;
}

/* Is the count whose `.device_count(` stands at `p` (its call closed before `after`) a factor of a
 * product: `x * torch.cuda.device_count()` or `torch.cuda.device_count() * x`, not a power? */
static bool multiplies_by_the_count(const char *line, const char *p, const char *after,
                                    const char *end) {
    const char *b = p;
    while (b > line && (dl_source_name_byte(b[-1]) || b[-1] == '.'))
        b--;
    while (b > line && (b[-1] == ' ' || b[-1] == '\t'))
        b--;
    if (b > line && b[-1] == '*' && (b - 1 == line || b[-2] != '*')) return true;
    const char *q = after;
    while (q < end && (*q == ' ' || *q == '\t'))
        q++;
    return q < end && *q == '*' && (q + 1 == end || (q[1] != '*' && q[1] != '='));
}

/* Every `.device_count(` of the file tells one GPU from several (tells_one_gpu_from_many), or
 * stores the count under a name the file never reads again (`self.n_gpus =
 * torch.cuda.device_count()`, twenty of VL-T5's data files), or reads only to log it
 * (meshgraphnets' "Training with N GPUs") or so: such a count picks no device. */
static bool counts_gpus_for_nothing(DlRuleContext *ctx) {
    static const char call[] = ".device_count(";
    const DlSource *src = dl_rule_source(ctx);
    const char *text = src->text, *end = text + src->len, *p = text;
    bool any = false, gpu_code = dl_rule_file_uses(ctx, ".cuda(");
    for (; (p = memmem(p, (size_t)(end - p), call, sizeof call - 1)) != NULL;
         p += sizeof call - 1) {
        if (on_a_comment_line(text, p)) continue;
        /* `if torch.cuda.device_count() > 0 and torch.cuda.is_available():`: one test of
         * whether a GPU is there, which the availability check's own rule judges (a seeding
         * helper's: checks_a_gpu_only_for_housekeeping; SDT's and One-DM's `fix_seed`) */
        const char *line_end = memchr(p, '\n', (size_t)(end - p));
        const char *line_start = dl_source_line_start_of(text, p);
        if (memmem(line_start, (size_t)((line_end ? line_end : end) - line_start),
                   "cuda.is_available()", 19)) {
            any = true;
            continue;
        }
        /* `print("Using", torch.cuda.device_count(), "GPUs.")`: only logged (LADE's); or
         * formatted into a message built first (`info += '... = %d\n' %
         * torch.cuda.device_count()`: Bengaliai's environment report) */
        if (on_a_logging_line(text, p) || formatted_into_text(line_start, p)) {
            any = true;
            continue;
        }
        /* `list(range(torch.cuda.device_count()))` and `assert int(d) <
         * torch.cuda.device_count()`: the ids of the GPUs a run is given, listed or checked
         * (TorchSSC's `parse_devices`), which asks nothing of a machine without one; in a file
         * that moves nothing itself (not Zhenye-Na's mp3, whose `.cuda()` and DataParallel of
         * every GPU run under `if opt.is_gpu:`, nor tsb-gan's trainer, moving to `self.device`) */
        if (!gpu_code && !dl_rule_file_uses(ctx, ".to(") &&
            lists_or_checks_gpu_ids(line_start, p)) {
            any = true;
            continue;
        }
        const char *close = p + sizeof call - 1;
        if (close < end && *close == ')' &&
            tells_one_gpu_from_many(text, p, close + 1, end, gpu_code)) {
            any = true;
            continue;
        }
        /* `(time.time() - start) * torch.cuda.device_count()`: a factor (fast-autoaugment's
         * GPU-seconds, a batch size per GPU times the count), which is 0 without a GPU */
        if (close < end && *close == ')' && multiplies_by_the_count(line_start, p, close + 1, end)) {
            any = true;
            continue;
        }
        /* `n_gpu = torch.cuda.device_count()`, a name the file reads nowhere else */
        const char *name = dl_source_line_start_of(text, p);
        while (name < p && (*name == ' ' || *name == '\t'))
            name++;
        if (p - name > 5 && memcmp(name, "self.", 5) == 0) name += 5;
        size_t n = 0;
        while (name + n < p && dl_source_name_byte(name[n]))
            n++;
        if (!n || !stores_a_count(text, name, n, end) ||
            word_count(text, src->len, name, n, gpu_code) > 0)
            return false;
        any = true;
    }
    return any;
}

/* Every device the file builds is a GPU written out (`torch.device("cuda")`, `torch.device(
 * 'cuda:0')`), and it names the CPU nowhere (`"cpu"`): a GPU-only script, whose GPU count
 * sizes its batches and whose availability check is only printed (HybridQA's and ASTGCN's
 * training scripts). */
static bool pins_a_gpu(DlRuleContext *ctx) {
    if (dl_rule_file_mentions(ctx, "\"cpu\"") || dl_rule_file_mentions(ctx, "'cpu'")) return false;
    static const char call[] = "torch.device(";
    const DlSource *src = dl_rule_source(ctx);
    const char *text = src->text, *end = text + src->len, *p = text;
    bool any = false;
    for (; (p = memmem(p, (size_t)(end - p), call, sizeof call - 1)) != NULL;
         p += sizeof call - 1) {
        const char *line = dl_source_line_start_of(text, p);
        if (memchr(line, '#', (size_t)(p - line))) continue; /* commented out, or in a comment */
        const char *arg = p + sizeof call - 1;
        if (end - arg < 5 || (arg[0] != '"' && arg[0] != '\'') || memcmp(arg + 1, "cuda", 4) != 0)
            return false;
        any = true;
    }
    return any;
}

/* Every `cuda.is_available()` of the file is printed, or stored under a name that is only
 * printed (`USE_CUDA = torch.cuda.is_available()`, then `print("CUDA:", USE_CUDA, DEVICE)`). */
static bool checks_a_gpu_only_to_log(DlRuleContext *ctx) {
    static const char call[] = "cuda.is_available(";
    const DlSource *src = dl_rule_source(ctx);
    const char *text = src->text, *end = text + src->len, *p = text;
    bool any = false;
    for (; (p = memmem(p, (size_t)(end - p), call, sizeof call - 1)) != NULL;
         p += sizeof call - 1) {
        if (on_a_comment_line(text, p)) continue;
        any = true;
        if (on_a_logging_line(text, p)) continue;
        /* `NAME = torch.cuda.is_available()` */
        const char *name = dl_source_line_start_of(text, p);
        while (name < p && (*name == ' ' || *name == '\t'))
            name++;
        size_t n = 0;
        while (name + n < p && dl_source_name_byte(name[n]))
            n++;
        const char *q = name + n;
        while (q < p && *q == ' ')
            q++;
        if (!n || q >= p || *q != '=' || q[1] == '=') return false;
        for (q++; q < p && *q == ' '; q++) {
        }
        if (end - q < 6 || memcmp(q, "torch.", 6) != 0 || q + 6 != p) return false;
        /* read nowhere but where it is stored and printed */
        for (const char *w = text; (w = memmem(w, (size_t)(end - w), name, n)) != NULL; w += n)
            if ((w == text || !dl_source_name_byte(w[-1])) &&
                (w + n == end || !dl_source_name_byte(w[n])) && w != name &&
                !on_a_comment_line(text, w) && !on_a_logging_line(text, w))
                return false;
    }
    return any;
}

/* A device the project chooses when it runs: a module-level value another file binds to
 * `"cuda" if torch.cuda.is_available() else "cpu"` (or so), named for a device. */
static bool device_chosen_at_run_time(const DlProject *p, const char *qualified) {
    const char *last = strrchr(qualified, '.');
    last = last ? last + 1 : qualified;
    if (!strcasestr(last, "device")) return false;
    const DlValue *v = dl_project_find_global(p, qualified);
    return v && v->kind == DL_KIND_DEVICE && v->dev == DL_DEV_NAMED;
}

/* The file uses a device another file of the project chooses between a GPU and the CPU: `from
 * config import DEVICE`, `model_config.device` of `from cfg import model as model_config`
 * (GPT-from-scratch's inference), or a project function named for a device that checks which
 * is there, `device = get_device()`. */
static bool uses_a_device_chosen_elsewhere(DlRuleContext *ctx) {
    static const char *const checks[] = {"cuda.is_available(", "mps.is_available(", NULL};
    const DlProject *p = dl_rule_project(ctx);
    const DlFileFacts *file = p ? dl_project_file(p, rule_module(ctx)) : NULL;
    if (!file) return false;
    const DlSource *src = dl_rule_source(ctx);
    const char *text = src->text, *end = text + src->len;
    DlArena *arena = dl_rule_arena(ctx);
    for (uint32_t i = 0; i < file->import_count; i++) {
        const char *alias = file->imports[i].alias, *qualified = file->imports[i].qualified;
        if (!alias || !qualified || strncmp(qualified, "torch", 5) == 0) continue;
        if (strcasestr(alias, "device")) {
            if (device_chosen_at_run_time(p, qualified)) return true;
            const DlFunctionInfo *fi = dl_project_find_function(p, file, qualified);
            if (fi && dl_project_function_mentions(fi, checks)) return true;
            continue;
        }
        /* `alias.device`: an attribute of a project module */
        size_t n = strlen(alias);
        for (const char *q = text; (q = memmem(q, (size_t)(end - q), alias, n)) != NULL; q += n) {
            if ((q > text && (dl_source_name_byte(q[-1]) || q[-1] == '.')) || q + n >= end ||
                q[n] != '.')
                continue;
            const char *name = q + n + 1;
            size_t k = 0;
            while (name + k < end && dl_source_name_byte(name[k]))
                k++;
            if (k && k < 64 &&
                device_chosen_at_run_time(p, dl_arena_printf(arena, "%s.%.*s", qualified, (int)k,
                                                             name)))
                return true;
        }
    }
    return false;
}

/* The file checks for a GPU or picks a device (test code aside): code meant to run with or
 * without one. */
static bool device_aware(DlRuleContext *ctx, const DlPlace *place) {
    /* called as methods: `torch.cuda.set_device(rank)`, not a project's `set_device_state()`,
     * nor a project object's own `set_device(device_id)` (CorrNet's GpuDataParallel, which
     * occupies the GPU it is given) */
    /* not `dist.is_available()`, which asks whether torch.distributed is built in (Halton-
     * MaskGIT's inception metrics) */
    static const char *const marks[] = {"cuda.is_available(", "mps.is_available(",
                                        "cuda.set_device(", ".device_count(", NULL};
    if (in_test_code(ctx, place->function)) return false;
    if (place->cuda_checked) return false; /* this load runs only where there is a GPU */
    /* `assert torch.cuda.is_available()`: the script requires a GPU, it never runs without */
    if (dl_rule_file_mentions(ctx, "assert torch.cuda.is_available") ||
        dl_rule_file_mentions(ctx, "assert(torch.cuda.is_available") ||
        dl_rule_file_mentions(ctx, "assert (torch.cuda.is_available"))
        return false;
    /* `pl.Trainer(devices=torch.cuda.device_count(), accelerator="gpu")`: Lightning refuses to
     * start without a GPU, and the count only sizes the job (donut); unless the file also
     * checks whether one is there (`accelerator="gpu" if torch.cuda.is_available() else ...`) */
    if (!dl_rule_file_uses(ctx, ".is_available(") && requires_a_gpu_accelerator(ctx)) return false;
    for (const char *const *m = marks; *m; m++)
        if (dl_rule_file_uses(ctx, *m) &&
            (m != marks || !(checks_a_gpu_only_for_housekeeping(ctx) ||
                             (checks_a_gpu_only_to_log(ctx) && pins_a_gpu(ctx)))) &&
            (m != marks + 3 || !(counts_gpus_for_nothing(ctx) || pins_a_gpu(ctx))))
            return true;
    return chooses_the_cpu_by_a_flag(ctx) || device_option_defaults_to_the_cpu(ctx) ||
           uses_a_device_chosen_elsewhere(ctx);
}

/* `torch.save(obj, path)`, also as `save(obj, path)` (`from torch import save`:
 * Kindergarten-VQ-VAE's training). */
/* The file whose load is being judged, for the names it imports torch under (`import torch
 * as ch`: Spiking-RepVGG's `ch.save(...)`); per thread, as files are checked in parallel. */
static _Thread_local const DlFileFacts *judged_file;

static bool is_torch_save(const DlExpr *e) {
    if (!e || e->kind != DL_EX_CALL || !e->object || !e->object->name ||
        strcmp(e->object->name, "save") != 0)
        return false;
    if (e->object->kind == DL_EX_NAME) return e->arg_count >= 2;
    const DlExpr *root = e->object->kind == DL_EX_ATTR ? e->object->object : NULL;
    if (!root || root->kind != DL_EX_NAME) return false;
    if (strcmp(root->name, "torch") == 0) return true;
    const char *imported = judged_file ? dl_project_import(judged_file, root->name) : NULL;
    return imported && strcmp(imported, "torch") == 0;
}

/* `f"{run_path}/ckpt_best.pth"`: an f-string that starts with a name's field, a path inside the
 * folder it names; that name, or NULL. */
static const DlExpr *fstring_folder(const DlExpr *e) {
    if (!e || e->kind != DL_EX_STRING || e->name || !e->item_count) return NULL;
    const DlExpr *first = e->items[0];
    uint32_t offset = first->span.start - e->span.start; /* f"{ or rf"{ before the field */
    return first->kind == DL_EX_NAME && (offset == 3 || offset == 4) ? first : NULL;
}

/* The text of an f-string with what its fields hold left out: `f"{d}/ep{epoch}.pt"` ->
 * `f"{}/ep{}.pt"` (malloc'ed), or NULL when `text` is no f-string. */
static char *fstring_skeleton(const char *text) {
    size_t prefix = strspn(text, "rRbB");
    if (text[prefix] != 'f' && text[prefix] != 'F') {
        prefix = 0;
        if (text[0] != 'f' && text[0] != 'F') return NULL;
    }
    size_t n = strlen(text);
    char *out = malloc(n + 1);
    if (!out) abort();
    size_t o = 0;
    int depth = 0;
    for (size_t i = 0; i < n; i++) {
        char c = text[i];
        if (c == '{' && i + 1 < n && text[i + 1] == '{' && !depth) {
            out[o++] = c;
            out[o++] = text[++i];
            continue;
        }
        if (c == '{') {
            if (!depth++) out[o++] = c;
            continue;
        }
        if (c == '}' && depth) {
            if (!--depth) out[o++] = c;
            continue;
        }
        if (!depth) out[o++] = c;
    }
    out[o] = '\0';
    return out;
}

/* A path joined from strings and `str()` of values, `'../models/' + str(DB) + '_' +
 * str(epoch) + '.pth'`, with each `str(...)` as a field `{}`, blanks left out and every quote
 * written `'` (malloc'ed); NULL when `text` is not such a join. */
static char *concat_skeleton(const char *text) {
    if (!strchr(text, '+') || !strstr(text, "str(") || (text[0] != '\'' && text[0] != '"' &&
                                                       strncmp(text, "str(", 4) != 0))
        return NULL;
    size_t n = strlen(text);
    char *out = malloc(n + 1);
    if (!out) abort();
    size_t o = 0;
    char quote = 0;
    for (size_t i = 0; i < n; i++) {
        char c = text[i];
        if (quote) {
            out[o++] = c == quote ? '\'' : c;
            if (c == '\\' && i + 1 < n) out[o++] = text[++i];
            else if (c == quote) quote = 0;
            continue;
        }
        if (c == '\'' || c == '"') {
            quote = c;
            out[o++] = '\'';
            continue;
        }
        if (c == ' ' || c == '\t' || c == '\n' || c == '\\') continue;
        if (strncmp(text + i, "str(", 4) == 0 && (i == 0 || !dl_source_name_byte(text[i - 1]))) {
            int depth = 0;
            size_t j = i + 3;
            for (; j < n; j++) {
                if (text[j] == '(') depth++;
                if (text[j] == ')' && --depth == 0) break;
            }
            if (j == n) break;
            out[o++] = '{';
            out[o++] = '}';
            i = j;
            continue;
        }
        out[o++] = c;
    }
    out[o] = '\0';
    return out;
}

/* The same path written from one template, its fields aside: `'{}.pkl'.format(epoch)` saved,
 * `'{}.pkl'.format(best_epoch)` loaded (pyGAT's best epoch), two f-strings alike, or two joins
 * alike (concat_skeleton). */
/* `"puisi_lstm_epoch100.pth"` loaded after `f"puisi_lstm_epoch{epoch}.pth"` saved (a notebook's
 * reload of its last epoch): the literal `lit` is the f-string `template` with each field a
 * number, after a literal start of three bytes or more. */
static bool literal_fills_template(const char *lit, const char *template) {
    char *skeleton = fstring_skeleton(template);
    if (!skeleton) return false;
    const char *s = skeleton + strspn(skeleton, "rRbBfF"), *l = lit + strspn(lit, "rRbBuU");
    const char *first = strstr(s, "{}");
    bool ok = (*s == '"' || *s == '\'') && (*l == '"' || *l == '\'') && !strchr(l, '{') &&
              first && first - s > 3;
    while (ok && *s) {
        if (s[0] == '{' && s[1] == '}') {
            if (!isdigit((unsigned char)*l)) ok = false;
            while (isdigit((unsigned char)*l)) l++;
            s += 2;
        } else if ((*s == '"' || *s == '\'') && (*l == '"' || *l == '\'')) {
            s++, l++;
        } else if (*s != *l) {
            ok = false;
        } else {
            s++, l++;
        }
    }
    ok = ok && !*l;
    free(skeleton);
    return ok;
}

static bool same_template(const char *a, const char *b) {
    if (literal_fills_template(a, b) || literal_fills_template(b, a)) return true;
    const char *fa = strstr(a, ".format("), *fb = strstr(b, ".format(");
    if (fa && fb && (a[0] == '\'' || a[0] == '"')) {
        if (fa - a != fb - b) return false;
        /* `"{}.pkl"` saved, `'{}.pkl'` loaded: one string (GraphSAGE-GCN-GAT's notebook) */
        for (const char *x = a, *y = b; x < fa; x++, y++)
            if (*x != *y && !((*x == '\'' || *x == '"') && (*y == '\'' || *y == '"')))
                return false;
        return true;
    }
    char *sa = fstring_skeleton(a), *sb = fstring_skeleton(b);
    bool same = sa && sb && strchr(sa, '{') && strcmp(sa, sb) == 0;
    free(sa);
    free(sb);
    if (same) return true;
    /* `'../models/' + str(DB) + '_' + str(epoch) + '.pth'` saved, `... + str(idx) + ".pth"`
     * loaded (an LSTM ensemble notebook's best epochs) */
    sa = concat_skeleton(a);
    sb = concat_skeleton(b);
    same = sa && sb && strstr(sa, "{}") && strcmp(sa, sb) == 0;
    free(sa);
    free(sb);
    return same;
}

/* Is `name` a function of the file's own that makes a path from what it is given: a top-level
 * def of one parameter, or a name bound to a lambda (tgn's `get_checkpoint_path = lambda
 * epoch: f'./saved_checkpoints/{args.prefix}-{epoch}.pth'`)? */
static bool path_template_helper(DlRuleContext *ctx, const char *name) {
    const DlModuleIR *m = rule_module(ctx);
    for (uint32_t i = 0; i < m->function_count; i++) {
        const DlFunction *f = m->functions[i];
        if (!f->owner && !f->parent && f->param_count == 1 && strcmp(f->name, name) == 0)
            return true;
    }
    for (uint32_t i = 0; i < m->body.count; i++) {
        const DlStmt *s = m->body.items[i];
        if (s->kind == DL_ST_ASSIGN && s->target_count == 1 &&
            s->targets[0]->kind == DL_EX_NAME && strcmp(s->targets[0]->name, name) == 0 &&
            s->value && s->value->kind == DL_EX_LAMBDA)
            return true;
    }
    return false;
}

/* `want` is a call of the same path helper as `e`, with one argument: `get_checkpoint_path(
 * epoch)` saved, `get_checkpoint_path(early_stopper.best_epoch)` loaded, as one template. */
static bool same_helper_template(DlRuleContext *ctx, const DlExpr *e, const char *want) {
    if (e->kind != DL_EX_CALL || e->arg_count != 1 || e->args[0].keyword || !e->object ||
        e->object->kind != DL_EX_NAME)
        return false;
    size_t n = strlen(e->object->name);
    return strncmp(want, e->object->name, n) == 0 && want[n] == '(' &&
           !strchr(want + n + 1, ',') && path_template_helper(ctx, e->object->name);
}

/* `a` and `b` are the same code but for blanks and line continuations (a path written over two
 * lines, aligned differently in the load and in the save: pytorch-chatbot's cache). */
static bool same_code(const char *a, const char *b) {
    for (;;) {
        while (*a == ' ' || *a == '\t' || *a == '\n' || *a == '\r' || *a == '\\') a++;
        while (*b == ' ' || *b == '\t' || *b == '\n' || *b == '\r' || *b == '\\') b++;
        /* `'best.pt'` and `"best.pt"` are one string */
        bool quotes = (*a == '\'' || *a == '"') && (*b == '\'' || *b == '"');
        if (*a != *b && !quotes) return false;
        if (!*a) return true;
        a++;
        b++;
    }
}

/* A string literal's text without a `./` right after its opening quote (malloc'ed): the same
 * relative path as `f"./models/{name}.pt"` and `f"models/{name}.pt"` (pytorch-tiny-imagenet's
 * notebooks); NULL when there is none. */
static char *without_dot_slash(const char *text) {
    /* `os.path.join(os.getcwd(), 'best_model.pth')`: the working folder's file, `'./best_model.pth'`
     * (a deeplabv3+ notebook's reload of what it saved) */
    static const char cwd_join[] = "os.path.join(os.getcwd(),";
    if (strncmp(text, cwd_join, sizeof cwd_join - 1) == 0) {
        const char *lit = text + sizeof cwd_join - 1;
        while (*lit == ' ') lit++;
        size_t n = strlen(lit);
        if (n < 3 || lit[n - 1] != ')' || (lit[0] != '"' && lit[0] != '\'') || lit[n - 2] != lit[0] ||
            memchr(lit + 1, lit[0], n - 3))
            return NULL;
        char *bare = strndup(lit, n - 1);
        if (!bare) abort();
        char *inner = without_dot_slash(bare);
        if (inner) {
            free(bare);
            return inner;
        }
        return bare;
    }
    size_t quote = strspn(text, "rbfuRBFU");
    if ((text[quote] != '"' && text[quote] != '\'') || strncmp(text + quote + 1, "./", 2) != 0)
        return NULL;
    char *out = malloc(strlen(text) - 1);
    if (!out) abort();
    memcpy(out, text, quote + 1);
    strcpy(out + quote + 1, text + quote + 3);
    return out;
}

/* `a` and `b`, written alike or from one template, once a leading `./` is dropped from each. */
static bool same_relative_path(const char *a, const char *b) {
    char *da = without_dot_slash(a), *db = without_dot_slash(b);
    const char *x = da ? da : a, *y = db ? db : b;
    bool same = (da || db) && (strcmp(x, y) == 0 || same_template(x, y));
    free(da);
    free(db);
    return same;
}

static const DlExpr *module_string_constant(DlRuleContext *ctx, const char *name);

/* Appends `s` to the `cap`-byte buffer `out` holding `*len` bytes; false when it does not fit. */
static bool append_text(char *out, size_t cap, size_t *len, const char *s) {
    size_t n = strlen(s);
    if (*len + n >= cap) return false;
    memcpy(out + *len, s, n + 1);
    *len += n;
    return true;
}

/* Appends to `out` the string `e` always is, written from literals: `"data/" + name`,
 * `'{}_{}.pkl'.format(stem, 20)`, `os.path.join("data", "x.pkl")`, a name bound to one of those (at
 * the top of the file, or last in `scope` before `before`). False for anything else. */
static bool fold_string(DlRuleContext *ctx, const DlExpr *e, const DlBlock *scope, uint32_t before,
                        char *out, size_t cap, size_t *len, int depth) {
    if (!e || depth > 8) return false;
    if (e->kind == DL_EX_STRING) return e->name && append_text(out, cap, len, e->name);
    if (e->kind == DL_EX_NUMBER) /* a decimal integer formats as written */
        return e->name && e->name[strspn(e->name, "0123456789")] == '\0' &&
               append_text(out, cap, len, e->name);
    if (e->kind == DL_EX_BINOP && e->item_count == 2 && e->name && strcmp(e->name, "+") == 0)
        return fold_string(ctx, e->items[0], scope, before, out, cap, len, depth + 1) &&
               fold_string(ctx, e->items[1], scope, before, out, cap, len, depth + 1);
    if (e->kind == DL_EX_NAME) {
        const DlExpr *bound = module_string_constant(ctx, e->name);
        if (!bound && scope) bound = dl_ir_last_assignment(scope, e->name, before);
        return bound && fold_string(ctx, bound, scope, bound->span.start, out, cap, len, depth + 1);
    }
    if (e->kind != DL_EX_CALL || !e->object) return false;
    const char *callee = rule_text(ctx, e->object->span);
    for (uint32_t i = 0; i < e->arg_count; i++)
        if (e->args[i].keyword) return false;
    if (strcmp(callee, "os.path.join") == 0) {
        for (uint32_t i = 0; i < e->arg_count; i++)
            if ((i && !append_text(out, cap, len, "/")) ||
                !fold_string(ctx, e->args[i].value, scope, before, out, cap, len, depth + 1))
                return false;
        return e->arg_count > 0;
    }
    /* `'{}.pkl'.format(a, b)`: each `{}` takes the next argument */
    const DlExpr *template =
        e->object->kind == DL_EX_ATTR && e->object->name && strcmp(e->object->name, "format") == 0
            ? e->object->object
            : NULL;
    if (!template || template->kind != DL_EX_STRING || !template->name) return false;
    uint32_t next = 0;
    for (const char *c = template->name; *c; c++) {
        if (c[0] == '{' && c[1] == '}') {
            if (next >= e->arg_count ||
                !fold_string(ctx, e->args[next++].value, scope, before, out, cap, len, depth + 1))
                return false;
            c++;
        } else if (*c == '{' || *c == '}') {
            return false; /* a named or numbered field, or a brace escaped */
        } else {
            char one[2] = {*c, '\0'};
            if (!append_text(out, cap, len, one)) return false;
        }
    }
    return next == e->arg_count;
}

/* `e`, written out (fold_string), is the `n` bytes of `want`. */
static bool folds_to(DlRuleContext *ctx, const DlExpr *e, const DlBlock *scope, uint32_t before,
                     const char *want, size_t n) {
    char folded[512] = "";
    size_t len = 0;
    return fold_string(ctx, e, scope, before, folded, sizeof folded, &len, 0) && len == n &&
           strncmp(folded, want, n) == 0;
}

/* `want`, the text of a plain string literal, and `e` are the same string written out: `"a.pkl"`
 * and `'a.pkl'`, or `'{}.pkl'.format(data_dir + "/a")` with `data_dir = os.path.join("data")`
 * and `"data/a.pkl"` (TSP_Transformer's test sets, saved and reloaded by one script). */
static bool same_string_written_out(DlRuleContext *ctx, const DlExpr *e, const char *want) {
    size_t prefix = strspn(want, "rbuRBU");
    char quote = want[prefix];
    size_t n = strlen(want);
    if ((quote != '"' && quote != '\'') || n < prefix + 2 || want[n - 1] != quote ||
        strchr(want + prefix + 1, '\\'))
        return false;
    /* names bound at the top of the file, when the save is there too */
    const DlBlock *top = &rule_module(ctx)->body, *scope = NULL;
    for (uint32_t i = 0; i < top->count && !scope; i++) {
        const DlStmt *s = top->items[i];
        if (s->span.start <= e->span.start && e->span.end <= s->span.end)
            scope = s->kind == DL_ST_DEF || s->kind == DL_ST_CLASS ? NULL : top;
    }
    return folds_to(ctx, e, scope, e->span.start, want + prefix + 1, n - prefix - 2);
}

/* `f"models/best.pt"`, an f-string with no field: the plain string's text, past its `f`. */
static const char *without_an_idle_f(const char *text) {
    bool f = text[0] == 'f' || text[0] == 'F';
    return f && (text[1] == '"' || text[1] == '\'') && !strchr(text, '{') ? text + 1 : text;
}

/* Is `e` (a save's path) written as `want`, or from its template (or its helper's), or handed
 * through a helper of one argument (`make_path(path)`, which creates the folder and gives the
 * path back: pytorch-openai-transformer-lm)? */
static bool path_matches(DlRuleContext *ctx, const DlExpr *e, const char *want) {
    const char *text = without_an_idle_f(rule_text(ctx, e->span));
    want = without_an_idle_f(want);
    if (strcmp(text, want) == 0 || same_code(text, want) || same_template(text, want) ||
        same_relative_path(text, want) || same_helper_template(ctx, e, want) ||
        same_string_written_out(ctx, e, want))
        return true;
    return e->kind == DL_EX_CALL && e->arg_count == 1 && !e->args[0].keyword &&
           strcmp(rule_text(ctx, e->args[0].value->span), want) == 0;
}

/* `misc.save_on_master(obj, path)` (DETR's and torchvision's references, sam-hq),
 * `save_checkpoint(state, path)`: a project's wrapper of torch.save, named for saving. */
static bool is_save_helper(const DlExpr *e) {
    if (!e || e->kind != DL_EX_CALL || !e->object || is_torch_save(e)) return false;
    const DlExpr *callee = e->object;
    const char *name =
        callee->kind == DL_EX_NAME || callee->kind == DL_EX_ATTR ? callee->name : NULL;
    return name && strncmp(name, "save", 4) == 0;
}

/* torch.save's path: its second argument, or f=; inside `os.path.expanduser(...)` (or
 * `abspath`, `realpath`), the path it names the same file by (deep4downscaling's training
 * loops). */
static const DlExpr *save_path(const DlExpr *save) {
    const DlExpr *path = dl_ir_positional(save, 1);
    const DlArg *kw = dl_ir_keyword(save, "f");
    path = path ? path : kw ? kw->value : NULL;
    static const char *const same_file[] = {"expanduser", "abspath", "realpath", NULL};
    if (path && path->kind == DL_EX_CALL && path->arg_count == 1 && !path->args[0].keyword &&
        path->object && path->object->kind == DL_EX_ATTR && path->object->name &&
        dl_name_in_list(path->object->name, same_file) && path->object->object &&
        path->object->object->kind == DL_EX_ATTR && path->object->object->name &&
        strcmp(path->object->object->name, "path") == 0)
        path = path->args[0].value;
    return path;
}

/* `e` is `os.path.join(param, ...)` (or `osp.join`), a path inside the folder `param`. */
static bool joins_onto_name(const DlExpr *e, const char *param) {
    const DlExpr *folder = fstring_folder(e);
    if (folder) return strcmp(folder->name, param) == 0;
    if (!e || e->kind != DL_EX_CALL || e->arg_count < 2 || e->args[0].keyword || !e->object ||
        e->object->kind != DL_EX_ATTR || !e->object->name || strcmp(e->object->name, "join") != 0)
        return false;
    const DlExpr *a = e->args[0].value;
    return a->kind == DL_EX_NAME && strcmp(a->name, param) == 0;
}

/* `path` is the name `name` itself. */
static bool is_name(const DlExpr *path, const char *name) {
    return path->kind == DL_EX_NAME && strcmp(path->name, name) == 0;
}

/* A statement of `b` (or of a block in it, not a nested function) calls torch.save with a path
 * `names` takes for `name`: the parameter itself (is_name), a path joined onto it
 * (joins_onto_name: pykt's `train_model(..., ckpt_path, ...)`, `torch.save(model.state_dict(),
 * os.path.join(ckpt_path, model.emb_type + "_model.ckpt"))`), or the attribute of self a class
 * keeps it in (dl_ir_is_self_attr). */
static bool block_saves_to(const DlBlock *b, bool (*names)(const DlExpr *, const char *),
                           const char *name, int depth) {
    if (depth > 16) return false;
    for (uint32_t i = 0; i < b->count; i++) {
        const DlStmt *s = b->items[i];
        if (s->kind == DL_ST_DEF || s->kind == DL_ST_CLASS) continue;
        const DlExpr *path =
            s->kind == DL_ST_EXPR && is_torch_save(s->value) ? save_path(s->value) : NULL;
        if (path && names(path, name)) return true;
        const DlBlock *inner;
        for (uint32_t k = 0; (inner = dl_stmt_block(s, k)); k++)
            if (block_saves_to(inner, names, name, depth + 1)) return true;
    }
    return false;
}

/* The parameter of `fn` that argument `a` of `call` binds, or NULL (a `*args`, a splat);
 * positional arguments bind from parameter `first` (1 for a constructor's `__init__`, past
 * `self`). */
static const char *parameter_bound_to(const DlFunction *fn, int first, const DlExpr *call,
                                      uint32_t a) {
    const char *kw = call->args[a].keyword;
    if (kw && kw[0] == '*') return NULL;
    int index = kw ? dl_ir_param_index(fn, kw) : -1;
    if (!kw) {
        index = first;
        for (uint32_t k = 0; k < a; k++)
            index += !call->args[k].keyword;
    }
    if (index < first || (uint32_t)index >= fn->param_count || fn->params[index].star) return NULL;
    return fn->params[index].name;
}

/* The project function `call` calls, when it writes the path it is handed as its argument `a`
 * with torch.save (stagewise-knowledge-distillation's `train(..., savename=savename)` keeps the
 * best weights so). */
/* The project function a call names: the file's own, or one it imports (`from pykt.models
 * import train_model`), or one of a module it imports (`import utils`, then
 * `utils.init_vgg16(dir)`: fast-neural-style). */
static const DlFunctionInfo *called_project_function(DlRuleContext *ctx, const DlExpr *call) {
    const DlExpr *callee = call->object;
    const DlExpr *root = callee && callee->kind == DL_EX_ATTR ? callee->object : callee;
    /* `deep4downscaling.deep.train.standard_training_loop(...)`: a package path, from its first
     * name */
    while (root && root->kind == DL_EX_ATTR) root = root->object;
    if (!root || root->kind != DL_EX_NAME) return NULL;
    const DlProject *p = dl_rule_project(ctx);
    const DlFileFacts *file = dl_project_file(p, rule_module(ctx));
    const char *imported = file ? dl_project_import(file, root->name) : NULL;
    const char *name = imported ? imported : root->name;
    const char *dotted = root != callee ? dl_ir_dotted(dl_rule_arena(ctx), callee) : NULL;
    const char *rest = dotted ? strchr(dotted, '.') : NULL;
    if (root != callee)
        name = imported && rest ? dl_arena_printf(dl_rule_arena(ctx), "%s%s", imported, rest)
                                : NULL;
    const DlFunctionInfo *fi = name ? dl_project_find_function(p, file, name) : NULL;
    return fi && fi->fn ? fi : NULL;
}

static bool project_function_saves_to_argument(DlRuleContext *ctx, const DlExpr *call,
                                               uint32_t a) {
    const DlFunctionInfo *fi = called_project_function(ctx, call);
    const char *param = fi ? parameter_bound_to(fi->fn, 0, call, a) : NULL;
    return param && block_saves_to(&fi->fn->body, is_name, param, 0);
}

/* The project class `call` builds (not a module), when its `__init__` keeps the argument `a`
 * in an attribute of self (`self.checkpoint_path = checkpoint_path`): that attribute's name,
 * with the class in *out; NULL otherwise. */
static const char *attribute_keeping_argument(DlRuleContext *ctx, const DlExpr *call, uint32_t a,
                                              const DlClassInfo **out) {
    const DlExpr *callee = call->object;
    if (!callee || callee->kind != DL_EX_NAME) return NULL;
    const DlProject *p = dl_rule_project(ctx);
    const DlFileFacts *file = dl_project_file(p, rule_module(ctx));
    /* the file's own class, or one it imports (`from utils import EarlyStopping`) */
    const char *imported = file ? dl_project_import(file, callee->name) : NULL;
    const DlClassInfo *ci = dl_project_find_class(p, file, imported ? imported : callee->name);
    const DlFunction *init = ci ? dl_ir_method_named(ci->cls, "__init__") : NULL;
    if (!init || ci->is_module) return NULL;
    const char *param = parameter_bound_to(init, 1, call, a);
    if (!param) return NULL;
    for (uint32_t i = 0; i < init->body.count; i++) {
        const DlStmt *s = init->body.items[i];
        if (s->kind == DL_ST_ASSIGN && s->target_count == 1 &&
            dl_ir_is_self_attr(s->targets[0], NULL) && s->value && s->value->kind == DL_EX_NAME &&
            strcmp(s->value->name, param) == 0) {
            *out = ci;
            return s->targets[0]->name;
        }
    }
    return NULL;
}

/* `EarlyStopping(args.checkpoint_path, patience=3)`: a project class whose `__init__` keeps
 * the path it is handed as its argument `a` (`self.checkpoint_path = checkpoint_path`) and a
 * method of which saves to it (FMLP-Rec's and CoSeRec's early stopping, which saves on its
 * first call): a save of that path in the same run, as a project function's. */
static bool project_class_saves_to_argument(DlRuleContext *ctx, const DlExpr *call, uint32_t a) {
    const DlClassInfo *ci = NULL;
    const char *attr = attribute_keeping_argument(ctx, call, a, &ci);
    for (uint32_t m = 0; attr && m < ci->cls->method_count; m++)
        if (block_saves_to(&ci->cls->methods[m]->body, dl_ir_is_self_attr, attr, 0)) return true;
    return false;
}

/* What a template-save search looks for: `'%s.pt' % self.<attr>` in the class, for a load of
 * `'%s.pt' % <argument>`. */
typedef struct TemplateOfAttribute {
    DlRuleContext *ctx;
    const char *attr, *argument, *want;
} TemplateOfAttribute;

static bool saves_template_of(DlRuleContext *ctx, const DlBlock *b, const TemplateOfAttribute *t,
                              int depth) {
    if (depth > 16) return false;
    for (uint32_t i = 0; i < b->count; i++) {
        const DlStmt *s = b->items[i];
        if (s->kind == DL_ST_DEF || s->kind == DL_ST_CLASS) continue;
        const DlExpr *path =
            s->kind == DL_ST_EXPR && is_torch_save(s->value) ? save_path(s->value) : NULL;
        if (path && path->kind == DL_EX_BINOP && path->name && strcmp(path->name, "%") == 0 &&
            path->item_count == 2 && path->items[0]->kind == DL_EX_STRING &&
            dl_ir_is_self_attr(path->items[1], t->attr)) {
            const char *expected = dl_arena_printf(
                dl_rule_arena(ctx), "%s %% %s", rule_text(ctx, path->items[0]->span),
                t->argument);
            if (same_code(expected, t->want)) return true;
        }
        const DlBlock *inner;
        for (uint32_t k = 0; (inner = dl_stmt_block(s, k)); k++)
            if (saves_template_of(ctx, inner, t, depth + 1)) return true;
    }
    return false;
}

/* `EarlyStopping(model_name_prefix)` whose method saves `'%s.pt' % self.mn_prefix`, the
 * attribute `__init__` keeps the argument in, and a load of `'%s.pt' % model_name_prefix`
 * (MaizeLeafCounting's training loop): the same file, by one template. */
static bool project_class_saves_template_of_argument(DlRuleContext *ctx, const DlExpr *call,
                                                     uint32_t a, const char *want) {
    const DlClassInfo *ci = NULL;
    const char *attr = attribute_keeping_argument(ctx, call, a, &ci);
    if (!attr || !ci->module) return false;
    TemplateOfAttribute t = {ctx, attr, rule_text(ctx, call->args[a].value->span), want};
    for (uint32_t m = 0; m < ci->cls->method_count; m++)
        if (ci->module == rule_module(ctx) &&
            saves_template_of(ctx, &ci->cls->methods[m]->body, &t, 0))
            return true;
    return false;
}

/* The project function `call` calls, when it saves into the folder it is handed as its
 * argument `a` (block_saves_to). */
static bool function_saves_into(DlRuleContext *ctx, const DlFunctionInfo *fi, const char *param,
                                int depth);

/* A statement of `b` (nested blocks too, not nested functions) that hands `param` to a function
 * of `fi`'s file that saves into it (`checkpoint(model, run_path)` in a `train(model,
 * run_path)`). */
static bool hands_folder_to_a_saver(DlRuleContext *ctx, const DlFunctionInfo *fi,
                                    const DlBlock *b, const char *param, int depth, int nesting) {
    const DlProject *p = dl_rule_project(ctx);
    for (uint32_t i = 0; nesting < 16 && i < b->count; i++) {
        const DlStmt *s = b->items[i];
        if (s->kind == DL_ST_DEF || s->kind == DL_ST_CLASS) continue;
        const DlExpr *call = s->kind == DL_ST_EXPR || s->kind == DL_ST_ASSIGN ? s->value : NULL;
        /* a function of the file, or a method of the class on self (`self.save_checkpoint(
         * val_loss, model, path)` in an early stopper's `__call__`) */
        bool own_method = call && call->kind == DL_EX_CALL && call->object &&
                          call->object->kind == DL_EX_ATTR && dl_ir_is_self(call->object->object) &&
                          fi->owner;
        if (call && call->kind == DL_EX_CALL && call->object &&
            (call->object->kind == DL_EX_NAME || own_method)) {
            const DlFileFacts *file = dl_project_file(p, fi->module);
            const DlFunctionInfo *g =
                own_method ? dl_project_method(p, fi->owner, call->object->name)
                : file     ? dl_project_find_function(p, file, call->object->name)
                           : NULL;
            for (uint32_t a = 0; g && g->fn && g != fi && a < call->arg_count; a++) {
                const DlExpr *arg = call->args[a].value;
                bool folder = arg->kind == DL_EX_NAME && strcmp(arg->name, param) == 0;
                /* `_save_ckpt(model, f"{checkpoint_dir}/best.pth")`, a helper that saves to
                 * the path it is handed, a file in the folder (Kindergarten-VQ-VAE's) */
                const DlExpr *in = fstring_folder(arg);
                bool file = in && strcmp(in->name, param) == 0;
                const char *bound =
                    folder || file ? parameter_bound_to(g->fn, own_method ? 1 : 0, call, a) : NULL;
                if (bound && folder && function_saves_into(ctx, g, bound, depth + 1))
                    return true;
                if (bound && file && block_saves_to(&g->fn->body, is_name, bound, 0))
                    return true;
            }
        }
        const DlBlock *inner;
        for (uint32_t k = 0; (inner = dl_stmt_block(s, k)); k++)
            if (hands_folder_to_a_saver(ctx, fi, inner, param, depth, nesting + 1)) return true;
    }
    return false;
}

/* `fi` saves into the folder its parameter `param` names, itself or through a function of its
 * file it hands the folder to (two calls deep at most). */
static bool function_saves_into(DlRuleContext *ctx, const DlFunctionInfo *fi, const char *param,
                                int depth) {
    if (block_saves_to(&fi->fn->body, joins_onto_name, param, 0)) return true;
    return depth < 2 && hands_folder_to_a_saver(ctx, fi, &fi->fn->body, param, depth, 0);
}

static const DlBlock *scope_around(DlRuleContext *ctx, uint32_t at);

/* `es(val_loss, model, path)` of `es = EarlyStopping()`, a project class (not a module) the
 * scope built: its `__call__`, or NULL. */
static const DlFunctionInfo *called_instance(DlRuleContext *ctx, const DlExpr *call) {
    const DlExpr *callee = call->object;
    if (!callee || callee->kind != DL_EX_NAME) return NULL;
    const DlExpr *built =
        dl_ir_last_assignment(scope_around(ctx, call->span.start), callee->name,
                              call->span.start);
    if (!built || built->kind != DL_EX_CALL || !built->object ||
        built->object->kind != DL_EX_NAME)
        return NULL;
    const DlProject *p = dl_rule_project(ctx);
    const DlFileFacts *file = dl_project_file(p, rule_module(ctx));
    const char *imported = file ? dl_project_import(file, built->object->name) : NULL;
    const DlClassInfo *ci =
        file ? dl_project_find_class(p, file, imported ? imported : built->object->name) : NULL;
    const DlFunctionInfo *fi = ci && !ci->is_module ? dl_project_method(p, ci, "__call__") : NULL;
    return fi && fi->fn ? fi : NULL;
}

static bool project_function_saves_into_argument(DlRuleContext *ctx, const DlExpr *call,
                                                 uint32_t a) {
    const DlFunctionInfo *fi = called_project_function(ctx, call);
    const char *param = fi ? parameter_bound_to(fi->fn, 0, call, a) : NULL;
    if (param) return function_saves_into(ctx, fi, param, 0);
    /* an early stopper handed the folder on each call, whose `__call__` saves into it
     * (`early_stopping(vali_loss, model, path)`, then `torch.load(path + '/checkpoint.pth')`:
     * Time-Series-Library's scripts and their copies) */
    fi = called_instance(ctx, call);
    param = fi ? parameter_bound_to(fi->fn, 1, call, a) : NULL;
    return param && function_saves_into(ctx, fi, param, 0);
}

/* The file a statement's call writes itself: torch.save's path, or where a copy goes
 * (`shutil.copyfile(filename, 'model_best.pth.tar')`); NULL for other calls. */
static const DlExpr *file_written(DlRuleContext *ctx, const DlExpr *e) {
    if (!e || e->kind != DL_EX_CALL || !e->object) return NULL;
    if (is_torch_save(e)) return save_path(e);
    const char *callee = dl_ir_dotted(dl_rule_arena(ctx), e->object);
    static const char *const copies[] = {"shutil.copyfile", "shutil.copy", "shutil.copy2",
                                         "os.replace", "os.rename", NULL};
    return callee && dl_name_in_list(callee, copies) ? dl_ir_positional(e, 1) : NULL;
}

/* A statement of `b` (or of a block in it, not a nested function) of the function in `home`
 * that writes the file named by the string literal `want`. */
static bool block_writes_file(DlRuleContext *ctx, const DlModuleIR *home, const DlBlock *b,
                              const char *want, int depth) {
    if (depth > 16) return false;
    for (uint32_t i = 0; i < b->count; i++) {
        const DlStmt *s = b->items[i];
        if (s->kind == DL_ST_DEF || s->kind == DL_ST_CLASS) continue;
        const DlExpr *path = s->kind == DL_ST_EXPR ? file_written(ctx, s->value) : NULL;
        if (path && path->kind == DL_EX_STRING &&
            strcmp(dl_rule_text_in(ctx, home, path->span), want) == 0)
            return true;
        const DlBlock *inner;
        for (uint32_t k = 0; (inner = dl_stmt_block(s, k)); k++)
            if (block_writes_file(ctx, home, inner, want, depth + 1)) return true;
    }
    return false;
}

/* A call of a project function that writes the file named by the literal `want` itself
 * (PyTorch's ImageNet example and its many copies, cgcnn's: `save_checkpoint(state, is_best)`
 * saves `checkpoint.pth.tar` and copies it to `'model_best.pth.tar'`). */
static bool project_function_writes_file(DlRuleContext *ctx, const DlExpr *call,
                                         const char *want) {
    if (want[0] != '\'' && want[0] != '"') return false;
    const DlExpr *callee = call->object;
    if (!callee || callee->kind != DL_EX_NAME) return false;
    const DlProject *p = dl_rule_project(ctx);
    const DlFunctionInfo *fi =
        dl_project_find_function(p, dl_project_file(p, rule_module(ctx)), callee->name);
    return fi && fi->fn && block_writes_file(ctx, fi->module, &fi->fn->body, want, 0);
}

/* Does the save call `e` write to a path written as `want`? torch.save's is its second
 * argument (or f=); a helper's, any argument after the first; a project function's, the one
 * it saves to. */
static bool saves_to(DlRuleContext *ctx, const DlExpr *e, const char *want) {
    if (is_torch_save(e)) {
        const DlExpr *path = save_path(e);
        return path && path_matches(ctx, path, want);
    }
    if (!e || e->kind != DL_EX_CALL) return false;
    if (project_function_writes_file(ctx, e, want)) return true;
    bool helper = is_save_helper(e);
    for (uint32_t a = 0; a < e->arg_count; a++) {
        bool first = a == 0 && !e->args[a].keyword;
        if (helper && !first && path_matches(ctx, e->args[a].value, want)) return true;
        if (!helper && path_matches(ctx, e->args[a].value, want) &&
            (project_function_saves_to_argument(ctx, e, a) ||
             project_class_saves_to_argument(ctx, e, a)))
            return true;
        if (!helper && !e->args[a].keyword &&
            project_class_saves_template_of_argument(ctx, e, a, want))
            return true;
    }
    return false;
}

/* Over the statements of `b` (nested blocks too, not nested functions) that start before
 * `before`: the start of the last `torch.save(obj, path)` (or a save helper's call) with `path`
 * written as `want`, and of the last assignment to `want` (a new buffer or file name) that
 * changes it: `path = os.path.join(d, 'best')` again, the same text (`*bound`, the text last
 * assigned), is the same file. */
static void scan_saves(DlRuleContext *ctx, const DlBlock *b, const char *want, uint32_t before,
                       uint32_t *last_save, uint32_t *last_bind, const char **bound, int depth) {
    if (depth > 32) return;
    for (uint32_t i = 0; i < b->count; i++) {
        const DlStmt *s = b->items[i];
        if (s->span.start >= before) return;
        if (s->kind == DL_ST_DEF || s->kind == DL_ST_CLASS) continue;
        if ((s->kind == DL_ST_EXPR || s->kind == DL_ST_ASSIGN) && saves_to(ctx, s->value, want))
            *last_save = s->span.start + 1;
        /* `PATH = '../models/' + str(epoch) + '.pth'` just before `torch.save(sd, PATH)`: the
         * path it was bound to in the same block */
        const DlExpr *held = s->kind == DL_ST_EXPR && is_torch_save(s->value) ? save_path(s->value)
                                                                              : NULL;
        const DlExpr *held_as = held && held->kind == DL_EX_NAME
                                    ? dl_ir_last_assignment(b, held->name, s->span.start)
                                    : NULL;
        if (held_as && strcmp(held->name, want) != 0 && path_matches(ctx, held_as, want))
            *last_save = s->span.start + 1;
        for (uint32_t t = 0; s->kind == DL_ST_ASSIGN && t < s->target_count; t++) {
            if (strcmp(rule_text(ctx, s->targets[t]->span), want) != 0) continue;
            const char *value = s->target_count == 1 && s->value
                                    ? rule_text(ctx, s->value->span)
                                    : NULL;
            bool same = value && *bound && strcmp(value, *bound) == 0;
            if (!same) *last_bind = s->span.start + 1;
            *bound = value;
        }
        const DlBlock *inner;
        for (uint32_t k = 0; (inner = dl_stmt_block(s, k)); k++)
            scan_saves(ctx, inner, want, before, last_save, last_bind, bound, depth + 1);
    }
}

/* `io.BytesIO(...)`, `BytesIO(buf)`: bytes in memory. */
static bool is_bytes_io(DlRuleContext *ctx, const DlExpr *e) {
    if (!e || e->kind != DL_EX_CALL || !e->object) return false;
    const char *callee = dl_ir_dotted(dl_rule_arena(ctx), e->object);
    size_t n = callee ? strlen(callee) : 0;
    return n >= 7 && strcmp(callee + n - 7, "BytesIO") == 0 &&
           (n == 7 || callee[n - 8] == '.');
}

/* `name` is bound in `b` (nested blocks too, not nested functions) before `before` to an
 * anonymous temporary file: `with tempfile.TemporaryFile("r+b") as f:` (or a
 * SpooledTemporaryFile), which no other process can have written. */
static bool bound_to_a_temporary_file(DlRuleContext *ctx, const DlBlock *b, const char *name,
                                      uint32_t before, int depth) {
    for (uint32_t i = 0; depth < 16 && i < b->count && b->items[i]->span.start < before; i++) {
        const DlStmt *s = b->items[i];
        if (s->kind == DL_ST_DEF || s->kind == DL_ST_CLASS) continue;
        for (uint32_t w = 0; s->kind == DL_ST_WITH && w < s->with_count && w < s->target_count;
             w++) {
            const DlExpr *t = s->targets[w], *c = s->withs[w];
            const char *callee = c && c->kind == DL_EX_CALL && c->object
                                     ? dl_ir_dotted(dl_rule_arena(ctx), c->object)
                                     : NULL;
            size_t n = callee ? strlen(callee) : 0;
            if (t && t->kind == DL_EX_NAME && strcmp(t->name, name) == 0 && n >= 13 &&
                strcmp(callee + n - 13, "TemporaryFile") == 0 && !strstr(callee, "Named"))
                return true;
        }
        const DlBlock *inner;
        for (uint32_t k = 0; (inner = dl_stmt_block(s, k)); k++)
            if (bound_to_a_temporary_file(ctx, inner, name, before, depth + 1)) return true;
    }
    return false;
}

/* The bytes are in memory, not a file: `torch.load(io.BytesIO(buf))` (not of `f.read()`), a
 * name bound to an empty BytesIO in the function, or a helper's parameter named for a buffer
 * (bitsandbytes' `torch_load_from_buffer(buffer)`). They were written by this process, or by a rank of the
 * same job (`dist.all_gather` of pickled tensors, mdetr's and GLIP's dist utilities), which
 * has the same GPUs. */
static bool reads_memory(DlRuleContext *ctx, const DlCallFact *fact) {
    const DlExpr *from = dl_ir_positional(fact->call, 0);
    if (!from) {
        const DlArg *f = dl_ir_keyword(fact->call, "f");
        from = f ? f->value : NULL;
    }
    if (!from) return false;
    if (is_bytes_io(ctx, from)) { /* unless filled from a file or a download */
        static const char *const files[] = {".read(", "open(", ".content", "urlopen", NULL};
        const DlSource *src = dl_rule_source(ctx);
        for (const char *const *f = files; *f; f++)
            if (dl_ir_span_mentions(src, from->span, *f)) return false;
        return true;
    }
    if (from->kind != DL_EX_NAME || !from->name) return false;
    static const char *const buffers[] = {"buffer", "buf", "buff", "bytes_io", "bytesio", NULL};
    const DlFunction *fn = fact->place->function;
    if (fn && dl_ir_param_index(fn, from->name) >= 0)
        return dl_name_in_list(from->name, buffers) ||
               (strlen(from->name) > 7 && strcmp(from->name + strlen(from->name) - 7, "_buffer") == 0);
    /* or in an anonymous temporary file this process filled (SAM2's `broadcast_object`, which
     * writes the bytes another rank broadcast to disk instead of memory) */
    if (fn && bound_to_a_temporary_file(ctx, &fn->body, from->name, fact->call->span.start, 0))
        return true;
    DlArena *arena = dl_rule_arena(ctx);
    const DlSource *src = dl_rule_source(ctx);
    DlSpan scope = fn ? fn->span : (DlSpan){0, (uint32_t)src->len};
    /* made empty, so filled by this process (`torch.save(obj, stream)`) */
    return dl_ir_span_mentions(src, scope, dl_arena_printf(arena, "%s = io.BytesIO()", from->name)) ||
           dl_ir_span_mentions(src, scope, dl_arena_printf(arena, "%s = BytesIO()", from->name));
}

/* The end of the innermost loop of `b` (nested blocks too, not nested functions) around the
 * byte `at`, or 0. */
static uint32_t enclosing_loop_end(const DlBlock *b, uint32_t at, int depth) {
    for (uint32_t i = 0; depth < 32 && i < b->count; i++) {
        const DlStmt *s = b->items[i];
        if (s->span.start > at || s->span.end <= at) continue;
        if (s->kind == DL_ST_DEF || s->kind == DL_ST_CLASS) return 0;
        uint32_t inner_end = 0;
        const DlBlock *inner;
        for (uint32_t k = 0; !inner_end && (inner = dl_stmt_block(s, k)); k++)
            inner_end = enclosing_loop_end(inner, at, depth + 1);
        if (inner_end) return inner_end;
        return s->kind == DL_ST_FOR || s->kind == DL_ST_WHILE ? s->span.end : 0;
    }
    return 0;
}

static const DlExpr *path_source(DlRuleContext *ctx, const DlCallFact *fact, const DlExpr *path);

/* The folder of `os.path.join(folder, "name")` (its first argument's text, when a string
 * literal follows it), or NULL. */
static const char *joined_folder(DlRuleContext *ctx, const DlExpr *e) {
    const DlExpr *folder = fstring_folder(e);
    if (folder) return rule_text(ctx, folder->span);
    if (e->kind != DL_EX_CALL || e->arg_count != 2 || e->args[0].keyword || !e->object)
        return NULL;
    /* a name written out, or made from one (`emb_type + "_model.ckpt"`) */
    const DlExpr *name = e->args[1].value;
    if (name->kind != DL_EX_STRING && !(name->kind == DL_EX_BINOP && name->item_count == 2 &&
                                        name->items[1]->kind == DL_EX_STRING))
        return NULL;
    const char *callee = dl_ir_dotted(dl_rule_arena(ctx), e->object);
    if (!callee || (strcmp(callee, "os.path.join") != 0 && strcmp(callee, "osp.join") != 0))
        return NULL;
    return rule_text(ctx, e->args[0].value->span);
}

/* A statement of `b` (nested blocks too, not nested functions) that starts before `before`
 * calls a save helper (is_save_helper) with `folder` as an argument after its first, or a
 * project function that saves into the folder it is handed (`best = train_model(model, ...,
 * ckpt_path)`). */
static bool helper_saves_into(DlRuleContext *ctx, const DlBlock *b, const char *folder,
                              uint32_t before, int depth) {
    for (uint32_t i = 0; depth < 32 && i < b->count && b->items[i]->span.start < before; i++) {
        const DlStmt *s = b->items[i];
        if (s->kind == DL_ST_DEF || s->kind == DL_ST_CLASS) continue;
        const DlExpr *call = s->kind == DL_ST_EXPR || s->kind == DL_ST_ASSIGN ? s->value : NULL;
        if (call && call->kind != DL_EX_CALL) call = NULL;
        for (uint32_t a = 0; call && a < call->arg_count; a++)
            if (strcmp(rule_text(ctx, call->args[a].value->span), folder) == 0 &&
                ((a > 0 && s->kind == DL_ST_EXPR && is_save_helper(call)) ||
                 project_function_saves_into_argument(ctx, call, a)))
                return true;
        const DlBlock *inner;
        for (uint32_t k = 0; (inner = dl_stmt_block(s, k)); k++)
            if (helper_saves_into(ctx, inner, folder, before, depth + 1)) return true;
    }
    return false;
}

/* The last statement of `b` (nested blocks too, not nested functions) before `before` that copies
 * or moves a file onto a path written as `want` (`shutil.copy(latest, best)`,
 * `shutil.copyfile`, `shutil.move`, `os.replace`, `os.rename`): its source, or NULL; `*at` is
 * where it starts. */
static const DlExpr *copied_onto(DlRuleContext *ctx, const DlBlock *b, const char *want,
                                 uint32_t before, uint32_t *at, int depth) {
    static const char *const copies[] = {"shutil.copy",  "shutil.copyfile", "shutil.copy2",
                                         "shutil.move",  "os.replace",      "os.rename",
                                         "copyfile",     NULL};
    const DlExpr *found = NULL;
    for (uint32_t i = 0; depth < 32 && i < b->count && b->items[i]->span.start < before; i++) {
        const DlStmt *s = b->items[i];
        if (s->kind == DL_ST_DEF || s->kind == DL_ST_CLASS) continue;
        const DlExpr *call = s->kind == DL_ST_EXPR ? s->value : NULL;
        if (call && call->kind == DL_EX_CALL && call->object && call->arg_count == 2 &&
            !call->args[0].keyword && !call->args[1].keyword) {
            const char *callee = dl_ir_dotted(dl_rule_arena(ctx), call->object);
            if (callee && dl_name_in_list(callee, copies) &&
                path_matches(ctx, call->args[1].value, want)) {
                found = call->args[0].value;
                *at = s->span.start;
            }
        }
        const DlBlock *inner;
        for (uint32_t k = 0; (inner = dl_stmt_block(s, k)); k++) {
            const DlExpr *in = copied_onto(ctx, inner, want, before, at, depth + 1);
            if (in) found = in;
        }
    }
    return found;
}

/* A path made from a template: an f-string with fields, `'...'.format(...)`, a call of a path
 * helper of the file's own (path_template_helper). */
static bool made_from_a_template(DlRuleContext *ctx, const DlExpr *e) {
    if (e->kind == DL_EX_CALL && e->object && e->object->kind == DL_EX_NAME)
        return path_template_helper(ctx, e->object->name);
    const char *text = rule_text(ctx, e->span);
    char *skeleton = fstring_skeleton(text);
    bool fields = skeleton && strchr(skeleton, '{');
    free(skeleton);
    return fields || strstr(text, ".format(");
}

/* The checkpoint was written by this run, on this machine, so it loads where it was saved:
 * `torch.save(model.state_dict(), path)` earlier in the same function, `path` not bound anew
 * since (the best epoch kept, reloaded after training), or Lightning's
 * `checkpoint_callback.best_model_path`. In a loop, a save anywhere in it counts, made by an
 * earlier iteration (early stopping: `if stop: load(path(best_epoch)) else: save(path(epoch))`);
 * a path held in a name counts as what the name was bound to (`best_model_path =
 * f'...{best_epoch}.pth'`). */
/* The function `call` runs: a project function (called_project_function), or a method of the
 * class of `fn` called on self (`self._train(...)`). */
static const DlFunction *function_called(DlRuleContext *ctx, const DlFunction *fn,
                                         const DlExpr *call) {
    const DlExpr *callee = call->object;
    if (fn && fn->owner && callee && callee->kind == DL_EX_ATTR && dl_ir_is_self(callee->object))
        return dl_ir_method_named(fn->owner, callee->name);
    const DlFunctionInfo *fi = called_project_function(ctx, call);
    return fi ? fi->fn : NULL;
}

/* The top-level function `name` of `home`, or one `home` imports under that name (`from
 * src.utils.utils import save_model`), or NULL. */
static const DlFunction *function_of(DlRuleContext *ctx, const DlModuleIR *home, const char *name) {
    for (uint32_t k = 0; k < home->function_count; k++) {
        const DlFunction *g = home->functions[k];
        if (!g->owner && !g->parent && strcmp(g->name, name) == 0) return g;
    }
    const DlProject *p = dl_rule_project(ctx);
    const DlFileFacts *file = p ? dl_project_file(p, home) : NULL;
    const char *imported = file ? dl_project_import(file, name) : NULL;
    const DlFunctionInfo *fi = imported ? dl_project_find_function(p, file, imported) : NULL;
    return fi && fi->fn && !fi->fn->owner ? fi->fn : NULL;
}

/* A statement of `b` (nested blocks too) calling a function of `home` by its name, handing it
 * `name`, which that function saves to (`save_model(model, best_model_save_path)`, whose
 * `torch.save(model.state_dict(), save_path)`). */
static bool hands_to_a_saver(DlRuleContext *ctx, const DlModuleIR *home, const DlBlock *b,
                             const char *name, int depth) {
    for (uint32_t i = 0; depth < 16 && i < b->count; i++) {
        const DlStmt *s = b->items[i];
        if (s->kind == DL_ST_DEF || s->kind == DL_ST_CLASS) continue;
        const DlExpr *call = s->kind == DL_ST_EXPR ? s->value : NULL;
        const DlFunction *g =
            call && call->kind == DL_EX_CALL && call->object && call->object->kind == DL_EX_NAME
                ? function_of(ctx, home, call->object->name)
                : NULL;
        for (uint32_t a = 0; g && a < call->arg_count; a++) {
            const DlExpr *arg = call->args[a].value;
            const char *param = arg && arg->kind == DL_EX_NAME && strcmp(arg->name, name) == 0
                                    ? parameter_bound_to(g, 0, call, a)
                                    : NULL;
            if (param && block_saves_to(&g->body, is_name, param, 0)) return true;
        }
        const DlBlock *inner;
        for (uint32_t k = 0; (inner = dl_stmt_block(s, k)); k++)
            if (hands_to_a_saver(ctx, home, inner, name, depth + 1)) return true;
    }
    return false;
}

/* `best_model_path = self._train(...)`, whose `_train` saves the model to `path` and returns
 * it (ABSA-PyTorch's Instructor), itself or through a saving helper of its file
 * (`save_model(model, best_model_save_path)`): the file was written by this run. */
static bool path_returned_by_a_save(DlRuleContext *ctx, const DlFunction *fn, const DlBlock *body,
                                    const DlExpr *path, uint32_t before) {
    if (path->kind != DL_EX_NAME) return false;
    const DlExpr *bound = dl_ir_last_assignment(body, path->name, before);
    const DlFunction *callee =
        bound && bound->kind == DL_EX_CALL ? function_called(ctx, fn, bound) : NULL;
    if (!callee) return false;
    for (uint32_t i = 0; i < callee->body.count; i++) {
        const DlStmt *s = callee->body.items[i];
        if (s->kind != DL_ST_RETURN || !s->value || s->value->kind != DL_EX_NAME) continue;
        const char *returned = s->value->name;
        if (block_saves_to(&callee->body, is_name, returned, 0)) return true;
        const DlFunctionInfo *fi = callee->facts;
        if (fi && fi->module && hands_to_a_saver(ctx, fi->module, &callee->body, returned, 0))
            return true;
    }
    return false;
}

/* The name the last statement of `b` (nested blocks too, not nested functions) before `before`
 * binds to a value written as `want` (`file = directory / 'logits.pt'`, penn's evaluation), or
 * NULL. */
static const char *name_bound_to_text(DlRuleContext *ctx, const DlBlock *b, const char *want,
                                      uint32_t before, int depth) {
    const char *found = NULL;
    for (uint32_t i = 0; depth < 32 && i < b->count && b->items[i]->span.start < before; i++) {
        const DlStmt *s = b->items[i];
        if (s->kind == DL_ST_DEF || s->kind == DL_ST_CLASS) continue;
        if (s->kind == DL_ST_ASSIGN && s->target_count == 1 &&
            s->targets[0]->kind == DL_EX_NAME && s->value &&
            strcmp(rule_text(ctx, s->value->span), want) == 0)
            found = s->targets[0]->name;
        const DlBlock *inner;
        for (uint32_t k = 0; (inner = dl_stmt_block(s, k)); k++) {
            const char *in = name_bound_to_text(ctx, inner, want, before, depth + 1);
            if (in) found = in;
        }
    }
    return found;
}

/* `torch.load(early_stopping.path)` after `early_stopping = EarlyStopping(path=...)`, a project
 * class whose `__init__` keeps the path it is handed in `self.path` and a method of which saves
 * to it, the instance called since (`early_stopping(val_loss, model)`, or a `.save...` method):
 * the file this run saved (the Informer family's training scripts). */
static bool saved_by_the_instance_holding_it(DlRuleContext *ctx, const DlBlock *b,
                                             const char *want, uint32_t before) {
    const char *dot = strchr(want, '.');
    if (!dot || dot == want || strchr(dot + 1, '.') || !dot[1]) return false;
    for (const char *c = want; *c; c++)
        if (c != dot && !(isalnum((unsigned char)*c) || *c == '_')) return false;
    const char *name = dl_arena_printf(dl_rule_arena(ctx), "%.*s", (int)(dot - want), want);
    const DlExpr *built = dl_ir_last_assignment(b, name, before);
    const DlSource *src = rule_module(ctx)->source;
    if (!built || built->kind != DL_EX_CALL || !src || built->span.end >= before) return false;
    DlSpan since = {built->span.end, before};
    const char *called = dl_arena_printf(dl_rule_arena(ctx), "%s(", name);
    const char *saving = dl_arena_printf(dl_rule_arena(ctx), "%s.save", name);
    if (!dl_ir_span_mentions(src, since, called) && !dl_ir_span_mentions(src, since, saving))
        return false;
    for (uint32_t a = 0; a < built->arg_count; a++) {
        const DlClassInfo *ci = NULL;
        const char *kept = attribute_keeping_argument(ctx, built, a, &ci);
        for (uint32_t m = 0; kept && strcmp(kept, dot + 1) == 0 && m < ci->cls->method_count; m++)
            if (block_saves_to(&ci->cls->methods[m]->body, dl_ir_is_self_attr, kept, 0))
                return true;
    }
    return false;
}

/* Saved to a path written as `want` in `b` before `before`, the path not bound anew since; or
 * to a name bound to it there (`file = d / 'x.pt'`, `torch.save(t, file)`, then
 * `torch.load(d / 'x.pt')`). */
static bool saved_before(DlRuleContext *ctx, const DlBlock *b, const char *want, uint32_t before) {
    uint32_t last_save = 0, last_bind = 0;
    const char *bound = NULL;
    scan_saves(ctx, b, want, before, &last_save, &last_bind, &bound, 0);
    if (last_save && last_bind < last_save) return true;
    if (saved_by_the_instance_holding_it(ctx, b, want, before)) return true;
    const char *alias = name_bound_to_text(ctx, b, want, before, 0);
    if (!alias) return false;
    last_save = last_bind = 0;
    bound = NULL;
    scan_saves(ctx, b, alias, before, &last_save, &last_bind, &bound, 0);
    return last_save && last_bind < last_save;
}

/* Appends to `out` (`cap` entries, `*n` used) the string literals of `e`, in order; false when
 * there are more. */
static bool template_literals(const DlExpr *e, const DlExpr **out, size_t cap, size_t *n,
                              int depth) {
    if (!e || depth > 16) return true;
    if (e->kind == DL_EX_STRING) {
        if (*n == cap) return false;
        out[(*n)++] = e;
        return true;
    }
    if (!template_literals(e->object, out, cap, n, depth + 1)) return false;
    for (uint32_t i = 0; i < e->item_count; i++)
        if (!template_literals(e->items[i], out, cap, n, depth + 1)) return false;
    for (uint32_t i = 0; i < e->arg_count; i++)
        if (!template_literals(e->args[i].value, out, cap, n, depth + 1)) return false;
    return true;
}

/* The leftmost operand of a `+` chain (`args.save` in `args.save + "_epoch_" + str(i)`). */
static const DlExpr *leftmost_operand(const DlExpr *e) {
    while (e && e->kind == DL_EX_BINOP && e->item_count == 2) e = e->items[0];
    return e;
}

/* Whether a save's path in a loop and a load's path are one template filled in with other
 * values: the same string literals in the same order, one of them at least, and the same
 * start (`args.save + "_epoch_" + str(i) + "_" + str(round(loss, 2)) + ".pth"`, then
 * `args.save + "_epoch_" + str(best + 1) + "_" + str(round(his_loss[best], 2)) + ".pth"`). */
static bool one_template_filled_again(DlRuleContext *ctx, const DlExpr *saved,
                                      const DlExpr *loaded) {
    const DlExpr *a[16], *b[16];
    size_t na = 0, nb = 0;
    if (!template_literals(saved, a, 16, &na, 0) || !template_literals(loaded, b, 16, &nb, 0) ||
        !na || na != nb)
        return false;
    for (size_t i = 0; i < na; i++)
        if (strcmp(rule_text(ctx, a[i]->span), rule_text(ctx, b[i]->span)) != 0) return false;
    const DlExpr *sa = leftmost_operand(saved), *sb = leftmost_operand(loaded);
    return sa && sb && strcmp(rule_text(ctx, sa->span), rule_text(ctx, sb->span)) == 0;
}

/* A loop of `b`, before the byte `before`, that saves under a template
 * (one_template_filled_again) the load's path `want` fills with other values (the epoch a
 * training script found best, read back after the loop: Graph-WaveNet's train.py): a file this
 * run wrote. `in_loop`: `b` is in one. */
static bool saved_by_an_earlier_loop(DlRuleContext *ctx, const DlBlock *b, const DlExpr *want,
                                     uint32_t before, bool in_loop, int depth) {
    for (uint32_t i = 0; depth < 16 && i < b->count && b->items[i]->span.start < before; i++) {
        const DlStmt *s = b->items[i];
        if (s->kind == DL_ST_DEF || s->kind == DL_ST_CLASS) continue;
        bool loop = s->kind == DL_ST_FOR || s->kind == DL_ST_WHILE;
        if (loop && s->span.end > before) continue; /* the load's own loop */
        const DlExpr *path =
            in_loop && s->kind == DL_ST_EXPR && is_torch_save(s->value) ? save_path(s->value)
                                                                        : NULL;
        if (path && one_template_filled_again(ctx, path, want)) return true;
        const DlBlock *inner;
        for (uint32_t k = 0; (inner = dl_stmt_block(s, k)); k++)
            if (saved_by_an_earlier_loop(ctx, inner, want, before, in_loop || loop, depth + 1))
                return true;
    }
    return false;
}

/* A load in a function nested in another, of a path the nested function does not bind, which a
 * sibling saves to (ignite's handlers: `@trainer.on(EPOCH_COMPLETED)` saving the model,
 * `@trainer.on(COMPLETED)` loading it back, CNNIQA's `run`): written by this run. */
static bool saved_by_a_sibling(DlRuleContext *ctx, const DlFunction *fn, const DlExpr *path) {
    if (!fn || !fn->parent || path->kind != DL_EX_NAME ||
        dl_ir_param_index(fn, path->name) >= 0 ||
        dl_ir_last_assignment(&fn->body, path->name, UINT32_MAX))
        return false;
    const DlModuleIR *m = rule_module(ctx);
    const char *want = rule_text(ctx, path->span);
    for (uint32_t k = 0; k < m->function_count; k++) {
        const DlFunction *g = m->functions[k];
        if (g == fn || g->parent != fn->parent) continue;
        uint32_t last_save = 0, last_bind = 0;
        const char *bound = NULL;
        scan_saves(ctx, &g->body, want, UINT32_MAX, &last_save, &last_bind, &bound, 0);
        if (last_save && !last_bind) return true;
    }
    return false;
}

/* written_by_a_callee's walk: a call of a top-level function of the file that saves to the path
 * named `want` (and binds no name of its own so), found among the calls it is handed. */
typedef struct CalleeSave {
    DlRuleContext *ctx;
    const char *want;
} CalleeSave;

static bool calls_a_function_saving_to(const DlExpr *e, void *data) {
    const CalleeSave *c = data;
    if (e->kind != DL_EX_CALL || !e->object || e->object->kind != DL_EX_NAME) return false;
    const DlModuleIR *m = rule_module(c->ctx);
    for (uint32_t k = 0; k < m->function_count; k++) {
        const DlFunction *g = m->functions[k];
        if (g->parent || g->owner || strcmp(g->name, e->object->name) != 0) continue;
        uint32_t last_save = 0, last_bind = 0;
        const char *bound = NULL;
        scan_saves(c->ctx, &g->body, c->want, UINT32_MAX, &last_save, &last_bind, &bound, 0);
        if (last_save && !last_bind) return true;
    }
    return false;
}

/* A statement of `b` before `before` calls a function of the file that saves to the module-level
 * path constant the load reads (`train()` ending a best epoch with `torch.save(model.state_dict(),
 * SAVE_PATH)`, then `torch.load(SAVE_PATH)` in `__main__`: vdogmcgee's SimCSE scripts). */
static bool written_by_a_callee(DlRuleContext *ctx, const DlBlock *b, const DlExpr *path,
                                uint32_t before, int depth) {
    if (depth > 8 || path->kind != DL_EX_NAME || !module_string_constant(ctx, path->name))
        return false;
    CalleeSave c = {ctx, path->name};
    for (uint32_t i = 0; i < b->count && b->items[i]->span.start < before; i++) {
        const DlStmt *s = b->items[i];
        if (s->kind == DL_ST_DEF || s->kind == DL_ST_CLASS) continue;
        if (dl_ir_expr_any_with(s->value, calls_a_function_saving_to, &c)) return true;
        const DlBlock *inner;
        for (uint32_t k = 0; (inner = dl_stmt_block(s, k)); k++)
            if (written_by_a_callee(ctx, inner, path, before, depth + 1)) return true;
    }
    return false;
}

/* Does `text` hold `word` as a whole identifier? */
static bool mentions_word(const char *text, const char *word) {
    size_t n = strlen(word);
    for (const char *p = strstr(text, word); p; p = strstr(p + 1, word)) {
        bool start = p == text || !dl_source_name_byte(p[-1]);
        bool end = !dl_source_name_byte(p[n]);
        if (start && end) return true;
    }
    return false;
}

/* Does the text `text` name, as a whole word, a folder a statement of `b` (or of a block in it,
 * before `before`) creates afresh: `with TemporaryDirectory(...) as temp:`, `temp =
 * tempfile.mkdtemp()`? */
static bool names_a_fresh_folder(DlRuleContext *ctx, const DlBlock *b, const char *text,
                                 uint32_t before, int depth) {
    for (uint32_t i = 0; depth < 16 && i < b->count && b->items[i]->span.start < before; i++) {
        const DlStmt *s = b->items[i];
        if (s->kind == DL_ST_DEF || s->kind == DL_ST_CLASS) continue;
        for (uint32_t w = 0; s->kind == DL_ST_WITH && w < s->with_count; w++) {
            const DlExpr *t = w < s->target_count ? s->targets[w] : NULL;
            const char *made = rule_text(ctx, s->withs[w]->span);
            if (t && t->kind == DL_EX_NAME &&
                (strstr(made, "TemporaryDirectory(") || strstr(made, "mkdtemp(")) &&
                mentions_word(text, t->name))
                return true;
        }
        if (s->kind == DL_ST_ASSIGN && s->target_count == 1 && s->value &&
            s->targets[0]->kind == DL_EX_NAME &&
            strstr(rule_text(ctx, s->value->span), "mkdtemp(") &&
            mentions_word(text, s->targets[0]->name))
            return true;
        const DlBlock *inner;
        for (uint32_t k = 0; (inner = dl_stmt_block(s, k)); k++)
            if (names_a_fresh_folder(ctx, inner, text, before, depth + 1)) return true;
    }
    return false;
}

/* The load reads a file in a folder this run created afresh, or a name bound to one (`for p in
 * Path(temp).glob("submission*.pt"):` in `with TemporaryDirectory() as temp:`: shopee's
 * ensemble): whatever is there this run wrote. */
static bool in_a_fresh_folder(DlRuleContext *ctx, const DlBlock *body, const DlExpr *path,
                              uint32_t at) {
    if (names_a_fresh_folder(ctx, body, rule_text(ctx, path->span), at, 0)) return true;
    const DlExpr *bound = path->kind == DL_EX_NAME ? dl_ir_last_binding(body, path->name, at)
                                                   : NULL;
    return bound && names_a_fresh_folder(ctx, body, rule_text(ctx, bound->span), at, 0);
}

/* dl_ir_expr_any_with's test: a call of the function named `data` by its name. */
static bool calls_by_name(const DlExpr *e, void *data) {
    return e->kind == DL_EX_CALL && e->object && e->object->kind == DL_EX_NAME &&
           strcmp(e->object->name, (const char *)data) == 0;
}

/* The statements of `b` (or of a block in it, not nested defs) that call `fn`: how many
 * (`*calls`), and how many of them an earlier statement of the same block precedes that calls
 * a top-level function of the file saving to `want` (`*after_a_save`). */
static void calls_after_a_save(DlRuleContext *ctx, const DlBlock *b, const DlFunction *fn,
                               const char *want, uint32_t *calls, uint32_t *after_a_save,
                               int depth) {
    CalleeSave c = {ctx, want};
    for (uint32_t i = 0; depth < 16 && i < b->count; i++) {
        const DlStmt *s = b->items[i];
        if (s->kind == DL_ST_DEF || s->kind == DL_ST_CLASS) continue;
        if (s->value && dl_ir_expr_any_with(s->value, calls_by_name, (void *)fn->name)) {
            ++*calls;
            for (uint32_t j = 0; j < i; j++)
                if (b->items[j]->value &&
                    dl_ir_expr_any_with(b->items[j]->value, calls_a_function_saving_to, &c)) {
                    ++*after_a_save;
                    break;
                }
        }
        const DlBlock *inner;
        for (uint32_t k = 0; (inner = dl_stmt_block(s, k)); k++)
            calls_after_a_save(ctx, inner, fn, want, calls, after_a_save, depth + 1);
    }
}

/* A top-level function of the file whose load the script (its top level, or a function of
 * the file such as `main`) calls, every time, after calling another that saves to the same
 * path: `evaluate(args)`, saving `os.path.join(args.results_dir, 'evaluation_results.pt')`,
 * then `visualize(args)` loading it (a channel-estimation study's main). Not where one call
 * comes with no save before it (`if not args.only_test: train(net); predict(net)` `else:
 * predict(net)`, which reads an earlier run's weights). */
static bool saved_earlier_in_the_script(DlRuleContext *ctx, const DlFunction *fn,
                                        const char *want) {
    if (!fn || fn->parent || fn->owner) return false;
    const DlModuleIR *m = rule_module(ctx);
    uint32_t calls = 0, after_a_save = 0;
    calls_after_a_save(ctx, &m->body, fn, want, &calls, &after_a_save, 0);
    for (uint32_t k = 0; k < m->function_count; k++)
        if (m->functions[k] != fn)
            calls_after_a_save(ctx, &m->functions[k]->body, fn, want, &calls, &after_a_save, 0);
    return calls && after_a_save == calls;
}

/* A torch.save in `b` (or a block in it) starting before `until` whose path's text begins with
 * the folder `folder` joined on: `folder + ...` or `os.path.join(folder, ...)`. */
static bool saves_into_folder_text(DlRuleContext *ctx, const DlBlock *b, const char *folder,
                                   uint32_t until, int depth) {
    size_t n = strlen(folder);
    for (uint32_t i = 0; depth < 16 && i < b->count && b->items[i]->span.start < until; i++) {
        const DlStmt *s = b->items[i];
        if (s->kind == DL_ST_DEF || s->kind == DL_ST_CLASS) continue;
        const DlExpr *path =
            s->kind == DL_ST_EXPR && is_torch_save(s->value) ? save_path(s->value) : NULL;
        const char *t = path ? rule_text(ctx, path->span) : NULL;
        if (t && strncmp(t, "os.path.join(", 13) == 0) t += 13;
        if (t && strncmp(t, folder, n) == 0 && (t[n] == ' ' || t[n] == '+' || t[n] == ','))
            return true;
        const DlBlock *inner;
        for (uint32_t k = 0; (inner = dl_stmt_block(s, k)); k++)
            if (saves_into_folder_text(ctx, inner, folder, until, depth + 1)) return true;
    }
    return false;
}

/* `torch.load(save_dir + os.listdir(save_dir)[0])` where the function (its loop, for a load
 * in one) saves into `save_dir` (`save_dir + "{}.pt".format(epoch)`, after removing the file
 * there before): the listing holds this run's checkpoint (an early-stopping NLI trainer). */
static bool lists_a_folder_it_saves_into(DlRuleContext *ctx, const DlBlock *body, const char *want,
                                         uint32_t until) {
    const char *l = strstr(want, "os.listdir(");
    if (!l) return false;
    l += 11;
    const char *close = strchr(l, ')');
    if (!close || close == l || (size_t)(close - l) > 200) return false;
    const char *folder = dl_arena_strndup(dl_rule_arena(ctx), l, (size_t)(close - l));
    for (const char *c = folder; *c; c++)
        if (!dl_source_name_byte(*c) && *c != '.') return false;
    return saves_into_folder_text(ctx, body, folder, until, 0);
}

/* The text of `span` in `m`'s source (arena copy). */
static const char *text_in(DlRuleContext *ctx, const DlModuleIR *m, DlSpan span) {
    if (!m->source || span.end > m->source->len || span.start > span.end) return NULL;
    return dl_arena_strndup(dl_rule_arena(ctx), m->source->text + span.start,
                            span.end - span.start);
}

/* The text the caller hands `fn`'s parameter `index` in `call` (its default's when it passes
 * none), of the caller's file `ctx` or the callee's `m`; NULL when a splat may pass it. `fn`
 * is a plain function: no self comes first. */
static const char *argument_text(DlRuleContext *ctx, const DlFunction *fn, const DlModuleIR *m,
                                 uint32_t index, const DlExpr *call) {
    uint32_t positional = 0;
    for (uint32_t a = 0; a < call->arg_count; a++) {
        const char *kw = call->args[a].keyword;
        if (kw && kw[0] == '*') return NULL;
        if (kw ? strcmp(kw, fn->params[index].name) == 0 : positional++ == index)
            return rule_text(ctx, call->args[a].value->span);
    }
    const DlExpr *d = fn->params[index].default_value;
    return d ? text_in(ctx, m, d->span) : NULL;
}

/* `text`, code of `fn` in `m`, with every parameter of `fn` it names as a whole word (not an
 * attribute, not in a string) written as `call` hands it; NULL when one cannot be. */
static const char *as_the_caller_writes(DlRuleContext *ctx, const DlFunction *fn,
                                        const DlModuleIR *m, const DlExpr *call,
                                        const char *text) {
    char out[1024];
    size_t len = 0;
    for (const char *p = text; *p;) {
        if (*p == '"' || *p == '\'') { /* a string, copied as it is */
            const char *q = p + 1;
            while (*q && *q != *p) q += q[0] == '\\' && q[1] ? 2 : 1;
            size_t n = (size_t)(q - p) + (*q ? 1 : 0);
            if (len + n >= sizeof out) return NULL;
            memcpy(out + len, p, n);
            len += n;
            p += n;
            continue;
        }
        if (dl_source_name_byte(*p) && !(*p >= '0' && *p <= '9')) {
            const char *q = p;
            while (dl_source_name_byte(*q)) q++;
            const char *word = dl_arena_strndup(dl_rule_arena(ctx), p, (size_t)(q - p));
            int index = p > text && p[-1] == '.' ? -1 : dl_ir_param_index(fn, word);
            const char *put = word;
            if (index >= 0) {
                if (fn->params[index].star) return NULL;
                put = argument_text(ctx, fn, m, (uint32_t)index, call);
                if (!put) return NULL;
            }
            size_t n = strlen(put);
            if (len + n >= sizeof out) return NULL;
            memcpy(out + len, put, n);
            len += n;
            p = q;
            continue;
        }
        if (len + 1 >= sizeof out) return NULL;
        out[len++] = *p++;
    }
    out[len] = '\0';
    return dl_arena_strndup(dl_rule_arena(ctx), out, len);
}

/* saved_by_a_callee_as's search of the callee: a torch.save in `b` (nested blocks too) whose
 * path, or the expression a name it is was last bound to, reads as `want` once the callee's
 * parameters are written as the call hands them. */
typedef struct CallerSave {
    DlRuleContext *ctx;
    const char *want;
} CallerSave;

static bool callee_saves_as(const CallerSave *c, const DlFunctionInfo *fi, const DlExpr *call,
                            const DlBlock *b, int depth) {
    for (uint32_t i = 0; depth < 16 && i < b->count; i++) {
        const DlStmt *s = b->items[i];
        if (s->kind == DL_ST_DEF || s->kind == DL_ST_CLASS) continue;
        const DlExpr *path =
            s->kind == DL_ST_EXPR && is_torch_save(s->value) ? save_path(s->value) : NULL;
        if (path && path->kind == DL_EX_NAME) {
            const DlExpr *bound = dl_ir_last_assignment(&fi->fn->body, path->name, s->span.start);
            if (bound) path = bound;
        }
        const char *text = path ? text_in(c->ctx, fi->module, path->span) : NULL;
        const char *seen =
            text ? as_the_caller_writes(c->ctx, fi->fn, fi->module, call, text) : NULL;
        if (seen && (same_code(seen, c->want) || same_template(seen, c->want))) return true;
        const DlBlock *inner;
        for (uint32_t k = 0; (inner = dl_stmt_block(s, k)); k++)
            if (callee_saves_as(c, fi, call, inner, depth + 1)) return true;
    }
    return false;
}

static bool calls_a_function_saving_as(const DlExpr *e, void *data) {
    const CallerSave *c = data;
    if (e->kind != DL_EX_CALL || is_torch_save(e)) return false;
    const DlFunctionInfo *fi = called_project_function(c->ctx, e);
    if (!fi || !fi->module || fi->fn->owner) return false;
    return callee_saves_as(c, fi, e, &fi->fn->body, 0);
}

/* A statement of `b` before `before` calls a project function that saves to the path the load
 * reads, written in the function from the parameters the call hands it: `train(model,
 * model_name=name, model_path=path)` saving to `model_path + model_name + '.pth'`, then
 * `torch.load(path + name + '.pth')`; `save_model(model, save_path, ...)` writing
 * `save_path.replace('.pt', '_metadata.pt')` (lstnet-solar-gen); `train_model(model, loader,
 * args)` saving into `os.path.join(args.results, "best_model.pth")` (xView2's notebook). */
static bool saved_by_a_callee_as(DlRuleContext *ctx, const DlBlock *b, const char *want,
                                 uint32_t before, int depth) {
    CallerSave c = {ctx, want};
    for (uint32_t i = 0; depth < 16 && i < b->count && b->items[i]->span.start < before; i++) {
        const DlStmt *s = b->items[i];
        if (s->kind == DL_ST_DEF || s->kind == DL_ST_CLASS) continue;
        if (s->span.end <= before && s->value &&
            dl_ir_expr_any_with(s->value, calls_a_function_saving_as, &c))
            return true;
        const DlBlock *inner;
        for (uint32_t k = 0; (inner = dl_stmt_block(s, k)); k++)
            if (saved_by_a_callee_as(ctx, inner, want, before, depth + 1)) return true;
    }
    return false;
}

/* A path expression with the names the function bound before `at` put back as what they were
 * bound to, and f-strings as their skeletons (fstring_skeleton), appended to `out`:
 * `load_path` after `load_name = f"gather_{ts}_{rank_load}.pkl"` and `load_path =
 * os.path.join(save_dir, load_name)` is `os.path.join(save_dir,f"gather_{}_{}.pkl")`. False
 * when it does not fit `cap` bytes or is too deep. */
static bool expand_path(DlRuleContext *ctx, const DlBlock *body, const DlExpr *e, uint32_t at,
                        char *out, size_t cap, int depth) {
    if (!e || depth > 6) return false;
    size_t n = strlen(out);
    const char *piece = NULL;
    char *skeleton = NULL;
    switch (e->kind) {
    case DL_EX_NAME: {
        const DlExpr *bound = dl_ir_last_assignment(body, e->name, at);
        if (bound && bound != e) return expand_path(ctx, body, bound, bound->span.start, out, cap, depth + 1);
        piece = e->name;
        break;
    }
    case DL_EX_STRING:
        piece = rule_text(ctx, e->span);
        if (!e->name) piece = skeleton = fstring_skeleton(piece);
        break;
    case DL_EX_CALL:
        if (!e->object || (e->object->kind != DL_EX_ATTR && e->object->kind != DL_EX_NAME))
            return false;
        if (n + strlen(rule_text(ctx, e->object->span)) + 2 >= cap) return false;
        strcat(strcat(out, rule_text(ctx, e->object->span)), "(");
        for (uint32_t i = 0; i < e->arg_count; i++) {
            if (e->args[i].keyword && strlen(out) + strlen(e->args[i].keyword) + 2 < cap)
                strcat(strcat(out, e->args[i].keyword), "=");
            if (!expand_path(ctx, body, e->args[i].value, at, out, cap, depth + 1)) return false;
            if (strlen(out) + 2 >= cap) return false;
            strcat(out, i + 1 < e->arg_count ? "," : ")");
        }
        if (!e->arg_count) strcat(out, ")");
        return true;
    case DL_EX_BINOP:
        if (!e->name || !expand_path(ctx, body, e->items[0], at, out, cap, depth + 1) ||
            strlen(out) + strlen(e->name) + 1 >= cap)
            return false;
        strcat(out, e->name);
        return expand_path(ctx, body, e->items[1], at, out, cap, depth + 1);
    default:
        piece = rule_text(ctx, e->span);
        break;
    }
    bool fits = piece && n + strlen(piece) + 1 < cap;
    if (fits) strcat(out, piece);
    free(skeleton);
    return fits;
}

/* A `torch.save` among the statements of `b` (nested blocks too, not nested functions) before
 * `before` whose path expands (expand_path) as `want` does: SAM2's `all_gather_via_filesys`,
 * which saves each rank's data to `save_data_path` and loads every rank's back from
 * `load_data_path`, both joined from one file name template. */
static bool saved_under_the_same_expansion(DlRuleContext *ctx, const DlBlock *body,
                                           const DlBlock *b, const char *want, uint32_t before,
                                           int depth) {
    for (uint32_t i = 0; depth < 16 && i < b->count && b->items[i]->span.start < before; i++) {
        const DlStmt *s = b->items[i];
        if (s->kind == DL_ST_DEF || s->kind == DL_ST_CLASS) continue;
        const DlExpr *path =
            s->kind == DL_ST_EXPR && is_torch_save(s->value) ? save_path(s->value) : NULL;
        char saved[512] = "";
        if (path && expand_path(ctx, body, path, s->span.start, saved, sizeof saved, 0) &&
            strcmp(saved, want) == 0)
            return true;
        const DlBlock *inner;
        for (uint32_t k = 0; (inner = dl_stmt_block(s, k)); k++)
            if (saved_under_the_same_expansion(ctx, body, inner, want, before, depth + 1))
                return true;
    }
    return false;
}

/* `best_save.last_checkpoint` of ignite's `Checkpoint` (or `ModelCheckpoint`) handler: the file
 * it saved last in this run, joined onto its folder or not. */
static bool names_ignites_last_checkpoint(const DlExpr *e, void *unused) {
    (void)unused;
    return e->kind == DL_EX_ATTR && e->name && strcmp(e->name, "last_checkpoint") == 0;
}

static bool written_by_this_run(DlRuleContext *ctx, const DlCallFact *fact) {
    const DlExpr *path = dl_ir_positional(fact->call, 0);
    if (!path) return false;
    if (path->kind == DL_EX_ATTR && path->name && strcmp(path->name, "best_model_path") == 0)
        return true;
    if (dl_rule_code_mentions(ctx, "ignite") &&
        dl_ir_expr_any_with(path, names_ignites_last_checkpoint, NULL))
        return true;
    const DlFunction *fn = fact->place->function;
    const DlBlock *body = fn ? &fn->body : &rule_module(ctx)->body;
    if (path_returned_by_a_save(ctx, fn, body, path, fact->call->span.start)) return true;
    if (in_a_fresh_folder(ctx, body, path, fact->call->span.start)) return true;
    if (written_by_a_callee(ctx, body, path, fact->call->span.start, 0)) return true;
    /* the save's path and the load's, each held in names, alike once those are put back (a
     * string written out in them, not a parameter's name alone) */
    char expanded[512] = "";
    if (path->kind == DL_EX_NAME &&
        expand_path(ctx, body, path, fact->call->span.start, expanded, sizeof expanded, 0) &&
        strpbrk(expanded, "\"'") &&
        saved_under_the_same_expansion(ctx, body, body, expanded, fact->call->span.start, 0))
        return true;
    uint32_t loop_end = enclosing_loop_end(body, fact->call->span.start, 0);
    const DlExpr *source = path_source(ctx, fact, path);
    for (int pass = 0; pass < (source != path ? 2 : 1); pass++) {
        const DlExpr *want = pass ? source : path;
        /* past the load only for a path made from a template: a file read and written back
         * under one name (`torch.save(torch.load(p), p)` in a loop over files) was not */
        uint32_t before = loop_end > fact->call->span.start && made_from_a_template(ctx, want)
                              ? loop_end
                              : fact->call->span.start;
        if (saved_before(ctx, body, rule_text(ctx, want->span), before)) return true;
        if (saved_by_an_earlier_loop(ctx, body, want, fact->call->span.start, false, 0))
            return true;
        if (!pass && saved_by_a_sibling(ctx, fn, want)) return true;
        if (lists_a_folder_it_saves_into(ctx, body, rule_text(ctx, want->span),
                                         loop_end > fact->call->span.start ? loop_end
                                                                           : fact->call->span.start) ||
            saved_by_a_callee_as(ctx, body, rule_text(ctx, want->span),
                                 fact->call->span.start, 0) ||
            saved_earlier_in_the_script(ctx, fn, rule_text(ctx, want->span)))
            return true;
        /* `shutil.copy(latest, best)` after `torch.save(state, latest)`, then `torch.load(best)`
         * (Transfer-Learning-Library's scripts keep their best epoch so) */
        uint32_t copied_at = 0;
        const DlExpr *copy_of = copied_onto(ctx, body, rule_text(ctx, want->span), before,
                                            &copied_at, 0);
        if (copy_of) {
            uint32_t copy_save = 0, copy_bind = 0;
            const char *copy_bound = NULL;
            scan_saves(ctx, body, rule_text(ctx, copy_of->span), copied_at + 1, &copy_save,
                       &copy_bind, &copy_bound, 0);
            if (copy_save && copy_bind < copy_save) return true;
        }
        /* `torch.load(os.path.join(args.save, 'model.pt'))` after (or in the loop of) a save
         * helper handed the folder: `save_checkpoint(model, optimizer, epoch, args.save)`,
         * which joins its file names onto it (darts) */
        const char *folder = joined_folder(ctx, want);
        uint32_t until = loop_end > fact->call->span.start ? loop_end : fact->call->span.start;
        if (folder && helper_saves_into(ctx, body, folder, until, 0)) return true;
    }
    return false;
}

/* Is `e` the CPU written out: `"cpu"`, `'cpu'`, `torch.device("cpu")`? */
static bool names_the_cpu(DlRuleContext *ctx, const DlExpr *e) {
    if (!e) return false;
    const char *text = rule_text(ctx, e->span);
    return strcmp(text, "\"cpu\"") == 0 || strcmp(text, "'cpu'") == 0 ||
           strcmp(text, "torch.device(\"cpu\")") == 0 || strcmp(text, "torch.device('cpu')") == 0;
}

/* A statement of `b` before `before` moves `saved` (or a part of it) to the CPU in place:
 * `self._generator.cpu()` or `self.set_device(torch.device("cpu"))` before `torch.save(self,
 * path)` (NVIDIA's CTGAN synthesizer), `model.to("cpu")` before `torch.save(model, path)`. */
static bool moved_to_the_cpu_before(DlRuleContext *ctx, const char *saved, const DlBlock *b,
                                    uint32_t before) {
    size_t n = strlen(saved);
    for (uint32_t j = 0; j < before; j++) {
        const DlExpr *v = b->items[j]->kind == DL_ST_EXPR ? b->items[j]->value : NULL;
        if (!v || v->kind != DL_EX_CALL || !v->object || v->object->kind != DL_EX_ATTR ||
            !v->object->name || !v->object->object)
            continue;
        /* `.cpu()`, `.to("cpu")`, or a method of its own given the CPU
         * (`self.set_device(torch.device("cpu"))`) */
        bool to_cpu = (strcmp(v->object->name, "cpu") == 0 && v->arg_count == 0) ||
                      names_the_cpu(ctx, dl_ir_positional(v, 0));
        const char *moved = rule_text(ctx, v->object->object->span);
        if (to_cpu && strncmp(moved, saved, n) == 0 && (moved[n] == '\0' || moved[n] == '.'))
            return true;
    }
    return false;
}

/* A loop of `b` before `before` that moves every entry of the dict `name` to the CPU in place:
 * `for key in model_state.keys(): model_state[key] = model_state[key].cpu()` before
 * `torch.save(model_state, path)` (data-free-continual-learning's `save_model`). */
static bool entries_moved_to_the_cpu_before(DlRuleContext *ctx, const char *name,
                                            const DlBlock *b, uint32_t before) {
    size_t n = strlen(name);
    for (uint32_t j = 0; j < before; j++) {
        const DlStmt *loop = b->items[j];
        if (loop->kind != DL_ST_FOR || !loop->value) continue;
        const char *over = rule_text(ctx, loop->value->span); /* name, name.keys() */
        if (strncmp(over, name, n) != 0 || (over[n] != '\0' && strcmp(over + n, ".keys()") != 0))
            continue;
        const DlBlock *body = &loop->parts->body;
        for (uint32_t k = 0; k < body->count; k++) {
            const DlStmt *s = body->items[k];
            if (s->kind != DL_ST_ASSIGN || s->target_count != 1 || !s->value) continue;
            const DlExpr *t = s->targets[0];
            const char *value = rule_text(ctx, s->value->span);
            if (t->kind == DL_EX_SUBSCRIPT && t->object->kind == DL_EX_NAME &&
                strcmp(t->object->name, name) == 0 &&
                (strstr(value, ".cpu()") || strstr(value, "'cpu'") || strstr(value, "\"cpu\"")))
                return true;
        }
    }
    return false;
}

/* The last statement of `b` before the `before`th that assigns `name` alone (`name = ...`), or
 * `before` when there is none. */
static uint32_t assignment_before(const DlBlock *b, const char *name, uint32_t before) {
    for (uint32_t j = before; j-- > 0;) {
        const DlStmt *s = b->items[j];
        if (s->kind == DL_ST_ASSIGN && s->target_count == 1 && s->targets[0]->kind == DL_EX_NAME &&
            strcmp(s->targets[0]->name, name) == 0)
            return j;
    }
    return before;
}

static bool made_on_the_cpu(DlRuleContext *ctx, const DlExpr *obj, const DlBlock *b,
                            uint32_t before, int depth);

/* Code that names no device, moves nothing and loads nothing. */
static bool text_names_no_device(const char *text) {
    return !strstr(text, "cuda") && !strstr(text, "device") && !strstr(text, ".to(") &&
           !strstr(text, "torch.load");
}

/* Host data by its text: NumPy or pandas values (`np.stack(v)`, `df.values`), never moved. */
static bool host_data_text(const char *text) {
    bool host = strstr(text, "np.") || strstr(text, "numpy") || strstr(text, "pd.") ||
                strstr(text, ".values") || strstr(text, ".to_numpy(");
    return host && text_names_no_device(text);
}

static const DlFunction *function_around(const DlBlock *b, uint32_t at, const DlFunction *outer,
                                         int depth);

/* `name`, bound in the function around it (not one of its parameters), whose text names no
 * device, loads nothing and moves nothing (`train_files, cv_files = train_test_split(files)` in a
 * loader factory): what it holds was made on the host. */
static bool made_in_a_function_naming_no_device(DlRuleContext *ctx, const DlExpr *name) {
    const DlFunction *fn = function_around(&rule_module(ctx)->body, name->span.start, NULL, 0);
    if (!fn || dl_ir_param_index(fn, name->name) >= 0) return false;
    const char *text = rule_text(ctx, fn->span);
    return text_names_no_device(text) && !strstr(text, "model");
}

/* The project class a call by `name` builds when it holds host data: no module, and its code
 * names no device (`QADataset(...)`, `Corpus(path)`); NULL otherwise. */
static const DlClassInfo *host_data_class(DlRuleContext *ctx, const char *name) {
    const DlProject *p = dl_rule_project(ctx);
    const DlFileFacts *file = dl_project_file(p, rule_module(ctx));
    const char *imported = file ? dl_project_import(file, name) : NULL;
    const DlClassInfo *ci = file ? dl_project_find_class(p, file, imported ? imported : name) : NULL;
    const DlSource *src = ci && ci->module ? ci->module->source : NULL;
    if (!ci || !src || ci->is_module || dl_ir_span_mentions(src, ci->cls->span, "cuda") ||
        dl_ir_span_mentions(src, ci->cls->span, "device") ||
        dl_ir_span_mentions(src, ci->cls->span, ".to("))
        return NULL;
    return ci;
}

/* The dotted name a callee stands for, its first part read through the file's imports
 * (`datasets.CIFAR10` after `from torchvision import datasets`: torchvision.datasets.CIFAR10). */
static const char *callee_qualified(DlRuleContext *ctx, const DlExpr *callee) {
    const char *dotted = dl_ir_dotted(dl_rule_arena(ctx), callee);
    const DlFileFacts *file = dl_project_file(dl_rule_project(ctx), rule_module(ctx));
    size_t head = dotted ? strcspn(dotted, ".") : 0;
    char first[128];
    if (!dotted || !file || head >= sizeof first) return dotted;
    memcpy(first, dotted, head);
    first[head] = '\0';
    const char *imported = dl_project_import(file, first);
    if (!imported) return dotted;
    return dotted[head] ? dl_arena_join(dl_rule_arena(ctx), imported, '.', dotted + head + 1)
                        : imported;
}

/* `BilingualDataset(src, tgt)`, an instance of such a class built in a file that names no
 * device either (Seq2Seq-raw's preprocessing script, which pickles its datasets of token
 * lists): nothing in it can be on a GPU. */
/* ... or a graph of PyTorch Geometric built there (`Data(x=x, edge_index=edge_index)`, a
 * preprocessing script's graph of tensors made from NumPy data): a container of what it is
 * given, which such a file makes on the host. A torchvision dataset (`CIFAR10(root, ...)`)
 * holds images and arrays wherever it is built. */
static bool host_class_instance_in_a_host_file(DlRuleContext *ctx, const DlExpr *obj) {
    if (obj->kind != DL_EX_CALL || !obj->object) return false;
    const char *callee = obj->object->kind == DL_EX_NAME || obj->object->kind == DL_EX_ATTR
                             ? callee_qualified(ctx, obj->object)
                             : NULL;
    if (callee && strncmp(callee, "torchvision.datasets.", 21) == 0) return true;
    if (obj->object->kind != DL_EX_NAME || !text_names_no_device(rule_module(ctx)->source->text))
        return false;
    static const char *const graphs[] = {"torch_geometric.data.Data",
                                         "torch_geometric.data.HeteroData", NULL};
    return (callee && dl_name_in_list(callee, graphs)) || host_data_class(ctx, obj->object->name);
}

/* `DataLoader(train_set, batch_size=...)` (or a name bound to one) over a project dataset whose
 * class names no device (no `cuda`, `device` or `.to(` in it) built in `b` from host data
 * (host_data_text, or arguments made on the CPU): saved whole with torch.save, it pickles CPU
 * tensors and arrays (pytorch-starlightcurves' loader factories). */
static bool loader_of_host_data(DlRuleContext *ctx, const DlExpr *obj, const DlBlock *b,
                                uint32_t before, int depth) {
    const char *callee = obj && obj->kind == DL_EX_CALL && obj->object ? obj->object->name : NULL;
    if (!callee || strcmp(callee, "DataLoader") != 0) return false;
    const DlArg *named = dl_ir_keyword(obj, "dataset");
    const DlExpr *ds = named ? named->value : dl_ir_positional(obj, 0);
    if (!ds || (ds->kind != DL_EX_NAME && ds->kind != DL_EX_CALL)) return false;
    /* built in the call, or bound in the save's block, or in the function around it (the
     * loaders built under an `if`, from datasets built before it) */
    uint32_t j = ds->kind == DL_EX_NAME ? assignment_before(b, ds->name, before) : before;
    const DlBlock *scope = scope_around(ctx, obj->span.start);
    const DlExpr *built = ds->kind == DL_EX_CALL ? ds
                          : j < before           ? b->items[j]->value
                                      : dl_ir_last_assignment(scope, ds->name, obj->span.start);
    if (!built || built->kind != DL_EX_CALL || !built->object || built->object->kind != DL_EX_NAME)
        return false;
    if (!host_data_class(ctx, built->object->name)) return false;
    for (uint32_t a = 0; a < built->arg_count; a++) {
        const DlExpr *arg = built->args[a].value;
        if (!arg || (built->args[a].keyword && built->args[a].keyword[0] == '*')) return false;
        if (arg->kind == DL_EX_NUMBER || arg->kind == DL_EX_STRING || arg->kind == DL_EX_CONST)
            continue;
        if (host_data_text(rule_text(ctx, arg->span))) continue;
        if (j < before && made_on_the_cpu(ctx, arg, b, j, depth + 1)) continue;
        const DlExpr *held = arg->kind == DL_EX_NAME
                                 ? dl_ir_last_assignment(scope, arg->name, built->span.start)
                                 : NULL;
        if (held && host_data_text(rule_text(ctx, held->span))) continue;
        if (arg->kind == DL_EX_NAME && made_in_a_function_naming_no_device(ctx, arg)) continue;
        return false;
    }
    return true;
}

/* What each_call_of hands its visitor: a call of the function, with the body it is in; true
 * stops the walk. */
typedef bool (*CallVisit)(const DlExpr *call, const DlBlock *scope, void *data);

typedef struct CallsOf {
    const DlFunction *fn;
    CallVisit visit;
    void *data;
    const DlBlock *scope; /* the body being walked */
    uint32_t calls;
    bool stopped;
} CallsOf;

static bool visit_call_of(const DlExpr *e, void *data) {
    CallsOf *c = data;
    if (e->kind != DL_EX_CALL || !e->object || e->object->kind != DL_EX_NAME ||
        strcmp(e->object->name, c->fn->name) != 0)
        return false;
    c->calls++;
    c->stopped = c->visit(e, c->scope, c->data);
    return c->stopped;
}

static void walk_calls_of(CallsOf *c, const DlBlock *b, int depth) {
    for (uint32_t i = 0; !c->stopped && depth < 16 && i < b->count; i++) {
        const DlStmt *s = b->items[i];
        if (s->kind == DL_ST_DEF || s->kind == DL_ST_CLASS) continue;
        if (dl_ir_expr_any_with(s->value, visit_call_of, c)) return;
        const DlBlock *inner;
        for (uint32_t k = 0; (inner = dl_stmt_block(s, k)); k++) walk_calls_of(c, inner, depth + 1);
    }
}

/* Each call of the top-level function `fn` by its name in the file being read, in the module's
 * statements and in the body of each of its functions but `skip` (a nested def is walked as a
 * function of its own), handed to `visit` until it returns true; how many calls were seen. */
static uint32_t each_call_of(DlRuleContext *ctx, const DlFunction *fn, const DlFunction *skip,
                             CallVisit visit, void *data) {
    const DlModuleIR *m = rule_module(ctx);
    CallsOf c = {.fn = fn, .visit = visit, .data = data, .scope = &m->body};
    walk_calls_of(&c, &m->body, 0);
    for (uint32_t k = 0; k < m->function_count && !c.stopped; k++) {
        if (m->functions[k] == skip) continue;
        c.scope = &m->functions[k]->body;
        walk_calls_of(&c, &m->functions[k]->body, 0);
    }
    return c.calls;
}

/* What given_cpu_data asks of each call in the file. */
typedef struct CpuArgument {
    DlRuleContext *ctx;
    const DlFunction *fn; /* the saving helper */
    int param;
    bool other; /* a call hands something else, or may */
} CpuArgument;

/* The project function `name` of the file being read, or NULL. */
static const DlFunction *file_function(DlRuleContext *ctx, const char *name) {
    const DlModuleIR *m = rule_module(ctx);
    for (uint32_t i = 0; i < m->function_count; i++)
        if (!m->functions[i]->owner && !m->functions[i]->parent &&
            strcmp(m->functions[i]->name, name) == 0)
            return m->functions[i];
    return NULL;
}

/* Whether every `return` among the statements of `b` returns something made on the CPU, and
 * there is one. */
static bool returns_cpu_data(DlRuleContext *ctx, const DlBlock *b, int depth, int *count) {
    DlBlock none = {NULL, 0};
    for (uint32_t i = 0; depth < 16 && i < b->count; i++) {
        const DlStmt *s = b->items[i];
        if (s->kind == DL_ST_DEF || s->kind == DL_ST_CLASS) continue;
        if (s->kind == DL_ST_RETURN) {
            if (!s->value || !made_on_the_cpu(ctx, s->value, &none, 0, 2)) return false;
            (*count)++;
        }
        const DlBlock *inner;
        for (uint32_t k = 0; (inner = dl_stmt_block(s, k)); k++)
            if (!returns_cpu_data(ctx, inner, depth + 1, count)) return false;
    }
    return true;
}

static bool note_cpu_argument(const DlExpr *e, const DlBlock *scope, void *data) {
    CpuArgument *a = data;
    const DlExpr *arg = dl_ir_argument_for(e, a->fn, (uint32_t)a->param, 0);
    /* `save_input(final_train, dir)`, `final_train = get_final_data(...)` of a function of the
     * file whose every return is made on the CPU */
    const DlExpr *bound = arg && arg->kind == DL_EX_NAME
                              ? dl_ir_last_assignment(scope, arg->name, e->span.start)
                              : NULL;
    const DlFunction *maker = bound && bound->kind == DL_EX_CALL && bound->object &&
                                      bound->object->kind == DL_EX_NAME
                                  ? file_function(a->ctx, bound->object->name)
                                  : NULL;
    int returns = 0;
    DlBlock none = {NULL, 0};
    bool cpu = arg && !bound && made_on_the_cpu(a->ctx, arg, &none, 0, 2);
    if (!cpu && (!maker || maker == a->fn || !returns_cpu_data(a->ctx, &maker->body, 0, &returns) ||
                 !returns))
        a->other = true;
    return a->other;
}

/* `name` is a parameter of a top-level function of the file (`def save_input(data, dir):
 * torch.save(data[0], ...)`) that every call in the file hands the result of a function of the
 * file returning data made on the CPU (`(torch.tensor(tokens), ...)`): SenYan1999's QANet
 * preprocessing, whose training script loads the files it writes. */
static bool given_cpu_data(DlRuleContext *ctx, const DlExpr *name) {
    const DlModuleIR *m = rule_module(ctx);
    const DlFunction *fn = function_around(&m->body, name->span.start, NULL, 0);
    int param = fn && !fn->owner && !fn->parent ? dl_ir_param_index(fn, name->name) : -1;
    if (param < 0 || fn->params[param].star) return false;
    CpuArgument a = {.ctx = ctx, .fn = fn, .param = param};
    return each_call_of(ctx, fn, NULL, note_cpu_argument, &a) && !a.other;
}

/* Is `obj`, saved by a statement of `b` before `before`, made on the CPU? `x.cpu()`; a torch
 * factory or conversion with no device in it (`torch.from_numpy(a)`, `torch.empty(n, k)`,
 * `torch.stack([torch.tensor(r) for r in rows])`: ogb's preprocessing, recognize-anything's
 * logit cache); a name last bound in `b` to one of those; a dict, list or tuple of them. */
static bool made_on_the_cpu(DlRuleContext *ctx, const DlExpr *obj, const DlBlock *b,
                            uint32_t before, int depth) {
    if (!obj || depth > 4) return false;
    const char *text = rule_text(ctx, obj->span);
    if (strstr(text, ".cpu()")) return true;
    if (obj->kind == DL_EX_DICT || obj->kind == DL_EX_LIST || obj->kind == DL_EX_TUPLE) {
        bool dict = obj->kind == DL_EX_DICT;
        for (uint32_t i = dict ? 1 : 0; i < obj->item_count; i += dict ? 2 : 1)
            if (!made_on_the_cpu(ctx, obj->items[i], b, before, depth + 1)) return false;
        return obj->item_count > 0;
    }
    if ((obj->kind == DL_EX_NAME || obj->kind == DL_EX_ATTR) && moved_to_the_cpu_before(ctx, text, b, before))
        return true;
    if (obj->kind == DL_EX_NAME && entries_moved_to_the_cpu_before(ctx, obj->name, b, before))
        return true;
    /* `data[0]` of data made on the CPU */
    if (obj->kind == DL_EX_SUBSCRIPT && obj->item_count == 1 && obj->object &&
        obj->object->kind == DL_EX_NAME && obj->items[0]->kind == DL_EX_NUMBER)
        return made_on_the_cpu(ctx, obj->object, b, before, depth + 1);
    if (obj->kind == DL_EX_NAME) {
        uint32_t j = assignment_before(b, obj->name, before);
        if (j < before) return made_on_the_cpu(ctx, b->items[j]->value, b, j, depth + 1);
        if (depth <= 1 && given_cpu_data(ctx, obj)) return true;
        /* bound outside the block the save is in: `x = torch.from_numpy(a)` at the top of a
         * script, `if save: torch.save(x, path)` (Signature-Kernel-Forecast's generate_data) */
        const DlExpr *bound =
            dl_ir_last_assignment(scope_around(ctx, obj->span.start), obj->name, obj->span.start);
        DlBlock none = {NULL, 0};
        return bound && bound != obj && made_on_the_cpu(ctx, bound, &none, 0, depth + 1);
    }
    /* `model.cpu()`, then `torch.save(model.state_dict(), path)` (disentangling-vae's
     * save_model, which moves the model back after) */
    const DlExpr *owner = obj->kind == DL_EX_CALL && obj->object &&
                                  obj->object->kind == DL_EX_ATTR && obj->object->name &&
                                  strcmp(obj->object->name, "state_dict") == 0
                              ? obj->object->object
                              : NULL;
    if (owner && (owner->kind == DL_EX_NAME || owner->kind == DL_EX_ATTR) &&
        moved_to_the_cpu_before(ctx, rule_text(ctx, owner->span), b, before))
        return true;
    /* `dict_to_cpu(net.state_dict())`: a helper named for a copy to the host (muzero's, which
     * `.cpu()`s every entry) */
    if (obj->kind == DL_EX_CALL && obj->object &&
        (obj->object->kind == DL_EX_NAME || obj->object->kind == DL_EX_ATTR) &&
        obj->object->name && strstr(obj->object->name, "cpu"))
        return true;
    if (loader_of_host_data(ctx, obj, b, before, depth)) return true;
    if (host_class_instance_in_a_host_file(ctx, obj)) return true;
    /* `dict(zip(range(n), feats))` of what is on the CPU: a container of it (CLIP embeddings
     * keyed by index, `feats` a `.cpu()` copy) */
    static const char *const containers[] = {"dict", "zip", "list", "tuple", NULL};
    const DlExpr *pairs = obj->kind == DL_EX_CALL && obj->object &&
                                  obj->object->kind == DL_EX_NAME &&
                                  strcmp(obj->object->name, "dict") == 0 && obj->arg_count == 1
                              ? obj->args[0].value
                              : NULL;
    /* `dict(zip(words, word_encs.cpu()))`: only the values may be tensors (keys are hashed by
     * identity, never device tensors in practice) */
    if (pairs && pairs->kind == DL_EX_CALL && pairs->object && pairs->object->kind == DL_EX_NAME &&
        strcmp(pairs->object->name, "zip") == 0 && pairs->arg_count == 2 &&
        !pairs->args[1].keyword)
        return made_on_the_cpu(ctx, pairs->args[1].value, b, before, depth + 1);
    if (obj->kind == DL_EX_CALL && obj->object && obj->object->kind == DL_EX_NAME &&
        dl_name_in_list(obj->object->name, containers) && obj->arg_count) {
        for (uint32_t i = 0; i < obj->arg_count; i++) {
            const DlExpr *a = obj->args[i].value;
            if (obj->args[i].keyword) return false;
            bool indices = a->kind == DL_EX_CALL && a->object && a->object->kind == DL_EX_NAME &&
                           strcmp(a->object->name, "range") == 0;
            if (!indices && !made_on_the_cpu(ctx, a, b, before, depth + 1)) return false;
        }
        return true;
    }
    /* `torch.tensor(a).half()`: a dtype conversion or a copy stays where its tensor is (a
     * feature map saved in half precision, made from a NumPy array) */
    static const char *const keep_place[] = {"half", "float", "double", "long", "int", "bool",
                                             "contiguous", "clone", "detach", NULL};
    if (obj->kind == DL_EX_CALL && !obj->arg_count && obj->object &&
        obj->object->kind == DL_EX_ATTR && dl_name_in_list(obj->object->name, keep_place))
        return made_on_the_cpu(ctx, obj->object->object, b, before, depth + 1);
    if (obj->kind != DL_EX_CALL || strncmp(text, "torch.", 6) != 0) return false;
    static const char *const makers[] = {
        "from_numpy", "tensor", "as_tensor", "stack",       "cat",         "empty",
        "zeros",      "ones",   "full",      "randn",       "rand",        "randint",
        "arange",     "linspace", "eye",     "Tensor",      "FloatTensor", "LongTensor",
        "IntTensor",  "DoubleTensor", "ByteTensor", "BoolTensor", "HalfTensor", NULL};
    const char *callee = obj->object ? obj->object->name : NULL;
    bool maker = callee && dl_name_in_list(callee, makers);
    /* `torch.stack(parts)`, `torch.cat(parts)`: where the parts are, made on the CPU each
     * (`torch.stack([torch.tensor(r) for r in rows])`), not a list of what a model gave
     * (`torch.stack([d[k]['embeds-boxes'] for k in d])`, CLIP's embeddings on the GPU) */
    if (maker && (strcmp(callee, "stack") == 0 || strcmp(callee, "cat") == 0)) {
        const DlExpr *parts = dl_ir_positional(obj, 0);
        if (!parts) return false;
        if (parts->kind == DL_EX_COMP) return made_on_the_cpu(ctx, parts->object, b, before, depth + 1);
        if (parts->kind == DL_EX_LIST || parts->kind == DL_EX_TUPLE) {
            for (uint32_t i = 0; i < parts->item_count; i++)
                if (!made_on_the_cpu(ctx, parts->items[i], b, before, depth + 1)) return false;
            return parts->item_count > 0;
        }
        return made_on_the_cpu(ctx, parts, b, before, depth + 1);
    }
    /* `torch.rand(n, k, device='cpu')` names the CPU (TSP_Transformer's test set) */
    const DlArg *device = dl_ir_keyword(obj, "device");
    if (maker && device && names_the_cpu(ctx, device->value)) return true;
    return maker && !strstr(text, "cuda") && !strstr(text, "device") && !strstr(text, ".to(");
}

/* What a `torch.save(obj, path)` statement (the `i`th of `b`) must be for the load at hand to
 * be exempt; `want` is the text the load's path is compared with. */
typedef bool (*SaveMatch)(DlRuleContext *ctx, const DlExpr *obj, const DlExpr *path,
                          const DlBlock *b, uint32_t i, const char *want);

/* Is any `torch.save` statement of `b` (and of the defs and classes in it) one `match` takes? */
static bool any_save(DlRuleContext *ctx, const DlBlock *b, SaveMatch match, const char *want,
                     int depth) {
    if (depth > 32) return false;
    for (uint32_t i = 0; i < b->count; i++) {
        const DlStmt *s = b->items[i];
        const DlBlock *own = s->kind == DL_ST_DEF && s->parts->func    ? &s->parts->func->body
                             : s->kind == DL_ST_CLASS && s->parts->cls ? &s->parts->cls->body
                                                                       : NULL;
        if (own) {
            if (any_save(ctx, own, match, want, depth + 1)) return true;
            continue;
        }
        if (s->kind == DL_ST_EXPR && is_torch_save(s->value)) {
            const DlExpr *obj = dl_ir_positional(s->value, 0);
            const DlExpr *path = dl_ir_positional(s->value, 1);
            if (obj && path && match(ctx, obj, path, b, i, want)) return true;
        }
        const DlBlock *inner;
        for (uint32_t k = 0; (inner = dl_stmt_block(s, k)); k++)
            if (any_save(ctx, inner, match, want, depth + 1)) return true;
    }
    return false;
}

/* `torch.save(net.cpu().state_dict(), path)` with `path` written as `want` */
static bool saved_from_the_cpu_as(DlRuleContext *ctx, const DlExpr *obj, const DlExpr *path,
                                  const DlBlock *b, uint32_t i, const char *want) {
    return strcmp(rule_text(ctx, path->span), want) == 0 && made_on_the_cpu(ctx, obj, b, i, 0);
}

/* `torch.save(anything, path)` with `path` written as `want` */
static bool saved_as(DlRuleContext *ctx, const DlExpr *obj, const DlExpr *path, const DlBlock *b,
                     uint32_t i, const char *want) {
    (void)obj, (void)b, (void)i;
    return same_code(rule_text(ctx, path->span), want);
}

/* `torch.save(features, path)` with `path` written as `want`, of data, not of a model's or an
 * optimizer's state (a resumed checkpoint, `torch.save({"generator_state_dict": ...}, path)`,
 * holds what the GPU trained, whoever runs it next). */
static bool saved_as_data(DlRuleContext *ctx, const DlExpr *obj, const DlExpr *path,
                          const DlBlock *b, uint32_t i, const char *want) {
    const char *saved = rule_text(ctx, obj->span);
    return saved_as(ctx, obj, path, b, i, want) && !strstr(saved, "state_dict") &&
           !strstr(saved, "model") && !strstr(saved, "checkpoint") && !strstr(saved, "ckpt");
}

/* Do the statements of `b` hold `load`? */
static bool block_spans(const DlBlock *b, const DlExpr *load) {
    return b->count && b->items[0]->span.start <= load->span.start &&
           load->span.end <= b->items[b->count - 1]->span.end;
}

typedef bool (*AroundTest)(const DlStmt *s, const DlExpr *load, void *arg);

/* Does `test` take a statement of `b` (or nested in it, not in a nested def or class) that
 * holds `load`? */
static bool statement_around(const DlBlock *b, const DlExpr *load, AroundTest test, void *arg,
                             int depth) {
    for (uint32_t i = 0; depth <= 16 && i < b->count; i++) {
        const DlStmt *s = b->items[i];
        if (s->span.end < load->span.end || s->span.start > load->span.start) continue;
        if (s->kind == DL_ST_DEF || s->kind == DL_ST_CLASS) continue;
        if (test(s, load, arg)) return true;
        const DlBlock *inner;
        for (uint32_t k = 0; (inner = dl_stmt_block(s, k)); k++)
            if (statement_around(inner, load, test, arg, depth + 1)) return true;
    }
    return false;
}

/* What a `try:` handler holds, asked by handler_of_a_try_around: `want` a path, or NULL. */
typedef bool (*HandlerTest)(DlRuleContext *ctx, const DlBlock *handler, const char *want);

typedef struct {
    DlRuleContext *ctx;
    HandlerTest test;
    const char *want;
} HandlerAsk;

static bool try_with_a_handler(const DlStmt *s, const DlExpr *load, void *arg) {
    const HandlerAsk *ask = arg;
    if (s->kind != DL_ST_TRY || !block_spans(&s->parts->body, load)) return false;
    for (uint32_t h = 0; h < s->parts->handler_count; h++)
        if (ask->test(ask->ctx, &s->parts->handlers[h], ask->want)) return true;
    return false;
}

/* A `try:` of `b` (or nested in it) whose body holds `load` has a handler that `test` takes. */
static bool handler_of_a_try_around(DlRuleContext *ctx, const DlBlock *b, const DlExpr *load,
                                    HandlerTest test, const char *want) {
    HandlerAsk ask = {ctx, test, want};
    return statement_around(b, load, try_with_a_handler, &ask, 0);
}

/* The handler saves under the path the load reads (`want`): `try: bert = torch.load(bert_path)
 * except Exception: bert = get_bert(...); torch.save(bert, bert_path)` (Bert-VITS2's feature
 * cache). */
static bool handler_saves_there(DlRuleContext *ctx, const DlBlock *handler, const char *want) {
    return any_save(ctx, handler, saved_as, want, 0);
}

/* `torch.load(p, map_location=...)` (or a second positional argument). */
static bool is_load_with_a_map_location(const DlExpr *e) {
    return e->kind == DL_EX_CALL && e->object && e->object->kind == DL_EX_ATTR && e->object->name &&
           strcmp(e->object->name, "load") == 0 && e->object->object &&
           e->object->object->kind == DL_EX_NAME && strcmp(e->object->object->name, "torch") == 0 &&
           dl_ir_map_location(e) != NULL;
}

/* A statement of `b`, or of a block in it (not a nested def's), holds a call `match` takes. */
static bool block_holds(const DlBlock *b, bool (*match)(const DlExpr *), int depth) {
    for (uint32_t i = 0; depth <= 16 && i < b->count; i++) {
        const DlStmt *s = b->items[i];
        if (s->kind == DL_ST_DEF || s->kind == DL_ST_CLASS) continue;
        if (dl_ir_expr_any(s->value, match)) return true;
        const DlBlock *inner;
        for (uint32_t k = 0; (inner = dl_stmt_block(s, k)); k++)
            if (block_holds(inner, match, depth + 1)) return true;
    }
    return false;
}

/* `torch.load(p, map_location="cpu")`, `torch.device("cpu")`, or a function of the storage
 * (`lambda storage, loc: storage`, which keeps it where it was read: on the host). */
static bool is_load_onto_the_host(const DlExpr *e) {
    if (!is_load_with_a_map_location(e)) return false;
    const DlExpr *to = dl_ir_map_location(e);
    if (to->kind == DL_EX_LAMBDA) return true;
    if (to->kind == DL_EX_CALL && to->object && to->object->kind == DL_EX_ATTR &&
        to->object->name && strcmp(to->object->name, "device") == 0 && to->arg_count == 1)
        to = to->args[0].value;
    return to->kind == DL_EX_STRING && to->name && strncmp(to->name, "cpu", 3) == 0;
}

static bool spans(const DlExpr *e, const DlExpr *load) {
    return e && e->span.start <= load->span.start && load->span.end <= e->span.end;
}

/* `torch.load(p) if self.cuda else torch.load(p, map_location="cpu")`, within `e`: a
 * conditional expression with `load` in one arm and a load onto the host in the other. */
static bool other_branch_loads_onto_the_host(const DlExpr *e, const DlExpr *load, int depth) {
    if (!spans(e, load) || e == load || depth > 32) return false;
    if (e->kind == DL_EX_COND && e->item_count == 2) {
        const DlExpr *arms[2] = {e->object, e->items[1]};
        for (int a = 0; a < 2; a++)
            if (spans(arms[a], load) && dl_ir_expr_any(arms[1 - a], is_load_onto_the_host))
                return true;
    }
    if (other_branch_loads_onto_the_host(e->object, load, depth + 1)) return true;
    for (uint32_t i = 0; i < e->item_count; i++)
        if (other_branch_loads_onto_the_host(e->items[i], load, depth + 1)) return true;
    for (uint32_t i = 0; i < e->arg_count; i++)
        if (other_branch_loads_onto_the_host(e->args[i].value, load, depth + 1)) return true;
    return false;
}

/* An `if` with `load` in one arm and a load onto the host in its other arm: `if use_gpu: ckpt
 * = torch.load(p) else: ckpt = torch.load(p, map_location=...)` (SummaRuNNer's), or the same
 * as one expression (pytorch-paraphraser's `torch.load(p) if self.cuda else torch.load(p,
 * map_location=...)`): the branch decides where the file loads, and the one without runs
 * where there is a GPU. */
static bool other_arm_loads_onto_the_host(const DlStmt *s, const DlExpr *load, void *arg) {
    (void)arg;
    if (other_branch_loads_onto_the_host(s->value, load, 0)) return true;
    if (s->kind != DL_ST_IF || !s->parts->orelse.count) return false;
    const DlBlock *arms[2] = {&s->parts->body, &s->parts->orelse};
    for (int a = 0; a < 2; a++)
        if (block_spans(arms[a], load) && block_holds(arms[1 - a], is_load_onto_the_host, 0))
            return true;
    return false;
}

/* The handler loads again with a map_location (nmt_seq2seq's `except RuntimeError: ...
 * torch.load(path, map_location=torch.device("cpu"))`): where the GPU the file was saved from
 * is missing, the load raises and the handler loads onto the CPU. */
static bool handler_loads_with_a_map_location(DlRuleContext *ctx, const DlBlock *handler,
                                              const char *want) {
    (void)ctx, (void)want;
    return block_holds(handler, is_load_with_a_map_location, 0);
}

/* A cache: the function loads the file when it exists and otherwise builds what it holds and
 * saves it under the same path (`if os.path.exists(cached_features_file): features =
 * torch.load(cached_features_file) else: ...; torch.save(features, cached_features_file)`, the
 * Hugging Face examples' feature caches): it was written by an earlier run on this machine. */
/* Does `text` test the existence of the path written as `want` (`exists(want)`,
 * `isfile(want)`, blanks aside)? */
static bool tests_existence_of(const char *text, const char *want) {
    static const char *const tests[] = {"exists(", "isfile(", NULL};
    for (int t = 0; tests[t]; t++) {
        size_t n = strlen(tests[t]);
        for (const char *p = strstr(text, tests[t]); p; p = strstr(p + 1, tests[t])) {
            const char *a = p + n, *b = want;
            for (;;) { /* same_code up to the end of `want`, then `)` */
                while (*a == ' ' || *a == '\t' || *a == '\n' || *a == '\\') a++;
                while (*b == ' ' || *b == '\t' || *b == '\n' || *b == '\\') b++;
                if (!*b || *a != *b) break;
                a++;
                b++;
            }
            while (*a == ' ') a++;
            if (!*b && *a == ')') return true;
        }
    }
    return false;
}

/* What other_arm_saves_the_data looks for: a save of data to the path written as `want`. */
typedef struct CacheArm {
    DlRuleContext *ctx;
    const char *want;
} CacheArm;

/* `s` is an `if` whose one arm holds the load and whose other saves data (not a model's
 * state) to the same path: a cache switched by a flag, built and saved on the run that does
 * not load it. */
static bool other_arm_saves_the_data(const DlStmt *s, const DlExpr *load, void *arg) {
    const CacheArm *c = arg;
    if (s->kind != DL_ST_IF || !s->parts->orelse.count) return false;
    const DlBlock *arms[2] = {&s->parts->body, &s->parts->orelse};
    for (int a = 0; a < 2; a++)
        if (block_spans(arms[a], load) && any_save(c->ctx, arms[1 - a], saved_as_data, c->want, 0))
            return true;
    return false;
}

static bool reads_its_own_cache(DlRuleContext *ctx, const DlCallFact *fact) {
    const DlExpr *path = dl_ir_positional(fact->call, 0);
    const DlFunction *fn = fact->place->function;
    if (!path) return false;
    /* at module level, the top-level statement around the load (outlier-exposure's `if
     * os.path.exists(fn): corpus = torch.load(fn) else: ...; torch.save(corpus, fn)`) */
    DlBlock around = {0};
    DlSpan scope;
    if (fn) {
        around = fn->body;
        scope = fn->span;
    } else {
        const DlBlock *top = &rule_module(ctx)->body;
        for (uint32_t i = 0; i < top->count && !around.count; i++)
            if (top->items[i]->span.start <= fact->call->span.start &&
                fact->call->span.end <= top->items[i]->span.end)
                around = (DlBlock){&top->items[i], 1};
        if (!around.count) return false;
        scope = around.items[0]->span;
    }
    const DlSource *src = dl_rule_source(ctx);
    const char *want = rule_text(ctx, path->span);
    if (handler_of_a_try_around(ctx, &around, fact->call, handler_saves_there, want)) return true;
    /* `if use_saved_data: ds = torch.load(p) else: ds = build(); torch.save(ds, p)`: the
     * other arm builds and saves it (ISIC_Challenge_2018's datasets; a path held in a
     * name too, whatever the `if` tests: code-search's `if os.path.exist(PCKL_PATH):`) */
    CacheArm arm = {ctx, want};
    if (statement_around(&around, fact->call, other_arm_saves_the_data, &arm, 0)) return true;
    /* a path written out (`os.path.join(save_dir, f"{n}.tar")`) is a cache only as above, or
     * where the existence test is of the same code (`if os.path.exists(cached_file + '_' +
     * str(epoch)):`, then the load and the save of it: Structure-free-certified-NLP's
     * features; `"temp/feat.pt"` written out three times); and what is saved is data: a
     * model's state loaded where it exists and saved again after training is a resumed run
     * (DBlur's trainers), whose checkpoint may come from another machine */
    bool named = path->kind == DL_EX_NAME || path->kind == DL_EX_ATTR;
    if (named && !dl_ir_span_mentions(src, scope, "exists(") &&
        !dl_ir_span_mentions(src, scope, "isfile("))
        return false;
    if (!named && !tests_existence_of(dl_rule_text_in(ctx, NULL, scope), want)) return false;
    return any_save(ctx, &around, saved_as_data, want, 0);
}

/* Is a method of the load's class saving to the same path written the same way
 * (`torch.save(self.collate(data_list), self.processed_paths[0])` in a PyG dataset's
 * `process()`, `torch.save(model.state_dict(), self.path)` in an early stopper's
 * `save_checkpoint`), which `torch.load(self.processed_paths[0])` or `torch.load(self.path)`
 * in another reads back? The class writes the file it reads: its own cache or checkpoint,
 * written on this machine (GraphDock's datasets, GeoBind's EarlyStopping). */
/* binds_as's test: a value written as `want` (same_code). */
typedef struct WrittenAs {
    DlRuleContext *ctx;
    const char *want;
} WrittenAs;

static bool written_as(const DlExpr *value, void *data) {
    const WrittenAs *w = data;
    return same_code(rule_text(w->ctx, value->span), w->want);
}

/* Whether a statement of `b` (or of a block in it) binds `name` to what is written as `want`
 * (`path = os.path.join(self.pt_folder, "best_checkpoint.pt")` on one arm of an `if`). */
static bool binds_as(DlRuleContext *ctx, const DlBlock *b, const char *name, const char *want) {
    WrittenAs w = {ctx, want};
    return dl_ir_binds_name_to(b, name, written_as, &w);
}

/* A call in `b` of a method of `cls` (`self._save(path)`) handing it the path written as
 * `want` (itself, or a name `b` last bound to it: `path = os.path.join(self.folder,
 * "best.pt")`), which that method saves to. */
static bool method_saves_the_path(DlRuleContext *ctx, const DlClass *cls, const DlBlock *b,
                                  const char *want, int depth) {
    for (uint32_t i = 0; depth < 16 && i < b->count; i++) {
        const DlStmt *s = b->items[i];
        const DlExpr *call = s->kind == DL_ST_EXPR || s->kind == DL_ST_ASSIGN ? s->value : NULL;
        const DlFunction *m =
            call && call->kind == DL_EX_CALL && call->object &&
                    call->object->kind == DL_EX_ATTR && dl_ir_is_self(call->object->object)
                ? dl_ir_method_named(cls, call->object->name)
                : NULL;
        for (uint32_t a = 0; m && a < call->arg_count; a++) {
            const DlExpr *arg = call->args[a].value;
            bool bound_to_it = arg && arg->kind == DL_EX_NAME && binds_as(ctx, b, arg->name, want);
            if (!bound_to_it && (!arg || !same_code(rule_text(ctx, arg->span), want))) continue;
            const char *param = parameter_bound_to(m, 1, call, a);
            if (param && block_saves_to(&m->body, is_name, param, 0)) return true;
        }
        const DlBlock *inner;
        for (uint32_t k = 0; s->kind != DL_ST_DEF && (inner = dl_stmt_block(s, k)); k++)
            if (method_saves_the_path(ctx, cls, inner, want, depth + 1)) return true;
    }
    return false;
}

/* `"{}/model_{}.tar".format(self.working_dir, epoch)`: a template's literal, or NULL. */
static const DlExpr *format_template(const DlExpr *e) {
    if (!e || e->kind != DL_EX_CALL || !e->object || e->object->kind != DL_EX_ATTR ||
        !e->object->name || strcmp(e->object->name, "format") != 0)
        return NULL;
    const DlExpr *lit = e->object->object;
    return lit && lit->kind == DL_EX_STRING && !lit->item_count ? lit : NULL;
}

/* The path of the load class_writes_it_itself asks about, for the predicates it hands any_save
 * (saved_from_the_template, saved_from_the_same_template); per thread, as files are checked in
 * parallel. */
static _Thread_local const DlExpr *load_path;

/* `torch.save(..., "{}/model_{}.tar".format(self.working_dir, i + 1))` for a load of
 * `"{}/model_{}.tar".format(self.working_dir, epoch)`: the same template, filled with the same
 * values of self and with numbers the two methods count each their own way (SDGym's
 * synthesizers save a checkpoint per stored epoch in train() and read them back in
 * generate()). */
static bool saved_from_the_template(DlRuleContext *ctx, const DlExpr *obj, const DlExpr *path,
                                    const DlBlock *b, uint32_t i, const char *want) {
    (void)obj, (void)b, (void)i, (void)want;
    const DlExpr *load = load_path, *lit = format_template(path);
    const DlExpr *load_lit = format_template(load);
    if (!lit || !load_lit || path->arg_count != load->arg_count ||
        !same_code(rule_text(ctx, lit->span), rule_text(ctx, load_lit->span)))
        return false;
    bool of_self = false;
    for (uint32_t a = 0; a < path->arg_count; a++) {
        if (path->args[a].keyword || load->args[a].keyword) return false;
        const char *saved = rule_text(ctx, path->args[a].value->span);
        const char *loaded = rule_text(ctx, load->args[a].value->span);
        bool self_saved = strstr(saved, "self.") != NULL, self_loaded = strstr(loaded, "self.");
        if (same_code(saved, loaded)) {
            of_self |= self_saved;
            continue;
        }
        if (self_saved || self_loaded) return false;
    }
    return of_self;
}

/* `a` and `b` are one path template, fields aside: the same template (same_template), or calls
 * of the same function (`os.path.join`) whose arguments are each the same code or the same
 * template, one at least a template. */
static bool same_path_template(DlRuleContext *ctx, const DlExpr *a, const DlExpr *b) {
    const char *ta = rule_text(ctx, a->span), *tb = rule_text(ctx, b->span);
    if (same_template(ta, tb)) return true;
    if (a->kind != DL_EX_CALL || b->kind != DL_EX_CALL || !a->object || !b->object ||
        a->arg_count != b->arg_count ||
        !same_code(rule_text(ctx, a->object->span), rule_text(ctx, b->object->span)))
        return false;
    bool templated = false;
    for (uint32_t k = 0; k < a->arg_count; k++) {
        if (a->args[k].keyword || b->args[k].keyword) return false;
        const char *x = rule_text(ctx, a->args[k].value->span);
        const char *y = rule_text(ctx, b->args[k].value->span);
        if (same_code(x, y)) continue;
        if (!same_template(x, y)) return false;
        templated = true;
    }
    return templated;
}

/* `torch.save(sd, os.path.join(self.save_dir, f"best_mix_{self.num_model}.pth"))` for a load of
 * `os.path.join(self.save_dir, f"best_mix_{index}.pth")`: the same template of self's path,
 * its fields aside (DeligentZ's trainer saves its best models and reads them back). */
static bool saved_from_the_same_template(DlRuleContext *ctx, const DlExpr *obj,
                                         const DlExpr *path, const DlBlock *b, uint32_t i,
                                         const char *want) {
    (void)obj, (void)b, (void)i, (void)want;
    return load_path && same_path_template(ctx, path, load_path);
}

/* A method of `cls` saves what the load of `path` (load_path) reads. */
static bool a_method_saves_it(DlRuleContext *ctx, const DlClass *cls, const DlExpr *path) {
    if (format_template(path))
        for (uint32_t k = 0; k < cls->method_count; k++)
            if (any_save(ctx, &cls->methods[k]->body, saved_from_the_template, NULL, 0))
                return true;
    const char *want = rule_text(ctx, path->span);
    /* the same in every method: read from self (`self.path`, `os.path.join(self.folder,
     * "best.pt")`) or written out (`"best.pt"`), not a local name */
    bool same_everywhere = strstr(want, "self.") ||
                           (path->kind == DL_EX_STRING && !path->item_count);
    if (!same_everywhere) return false;
    for (uint32_t k = 0; k < cls->method_count; k++)
        if (any_save(ctx, &cls->methods[k]->body, saved_as, want, 0) ||
            any_save(ctx, &cls->methods[k]->body, saved_from_the_same_template, want, 0) ||
            method_saves_the_path(ctx, cls, &cls->methods[k]->body, want, 0))
            return true;
    return false;
}

static bool class_writes_it_itself(DlRuleContext *ctx, const DlCallFact *fact) {
    const DlFunction *fn = fact->place->function;
    const DlExpr *path = dl_ir_positional(fact->call, 0);
    if (!fn || !fn->owner || !path) return false;
    load_path = path;
    bool found = a_method_saves_it(ctx, fn->owner, path);
    load_path = NULL;
    return found;
}

static const DlExpr *last_literal_in(DlRuleContext *ctx, const DlExpr *e, const DlBlock *scope,
                                     uint32_t before, int depth);

/* `torch.save(torch.Tensor(60000, 28, 28), path_data + 'mnist/train_data.pt')`: a CPU tensor
 * saved to a path that ends with the file name `want` (the string's contents), or that is
 * `want` when written out (`'{}.pkl'.format(data_dir + "/1000tsp20")`, TSP_Transformer's test
 * set, then `torch.load("data/1000tsp20.pkl")`) */
/* `s` (a string literal's contents) with each field (`%s`, `%03d`, `{}`, `{epoch}`) written as
 * one `\x01`, in `out` (`size` bytes); false when it has none or does not fit. */
static bool fields_marked(const char *s, char *out, size_t size) {
    size_t o = 0;
    bool field = false;
    for (const char *p = s; *p; p++) {
        if (o + 2 > size) return false;
        if (*p == '%' && p[1] && p[1] != '%') {
            const char *q = p + 1;
            while (*q && strchr("-+ #0123456789.", *q)) q++;
            if (*q && strchr("sdifgexr", *q)) {
                out[o++] = '\x01';
                field = true;
                p = q;
                continue;
            }
        }
        if (*p == '{' && p[1] != '{') {
            const char *close = strchr(p, '}');
            if (close) {
                out[o++] = '\x01';
                field = true;
                p = close;
                continue;
            }
        }
        out[o++] = *p;
    }
    out[o] = '\0';
    return field;
}

/* Two file name templates alike but for how their fields are written: `'/%s_net.pth' % epoch`
 * saved, `'/{}_net.pth'.format(test_model)` loaded (PoseNet-Pytorch's solver). */
static bool same_fields(const char *a, const char *b) {
    char ka[256], kb[256];
    return fields_marked(a, ka, sizeof ka) && fields_marked(b, kb, sizeof kb) &&
           strcmp(ka, kb) == 0;
}

static bool saved_from_the_cpu_to_file(DlRuleContext *ctx, const DlExpr *obj, const DlExpr *path,
                                       const DlBlock *b, uint32_t i, const char *want) {
    uint32_t at = b->items[i]->span.start;
    const DlExpr *lit = last_literal_in(ctx, path, b, at, 0);
    bool named = (lit && lit->name && (strcmp(lit->name, want) == 0 || same_fields(lit->name, want))) ||
                 folds_to(ctx, path, b, at, want, strlen(want));
    return named && made_on_the_cpu(ctx, obj, b, i, 0);
}

/* The file writes the checkpoint it reads itself, from the CPU (pix2pixHD's and SPADE's
 * `save_network` and `load_network`, both with `save_path`): it loads anywhere. */
static bool written_from_the_cpu_here(DlRuleContext *ctx, const DlCallFact *fact) {
    const DlExpr *path = dl_ir_positional(fact->call, 0);
    if (!path) return false;
    if ((path->kind == DL_EX_NAME || path->kind == DL_EX_ATTR) &&
        any_save(ctx, &rule_module(ctx)->body, saved_from_the_cpu_as,
                 rule_text(ctx, path->span), 0))
        return true;
    /* the file's own helper writes that file name from the CPU (dataflowr's
     * `check_mnist_dataset_exists`, then `torch.load('mnist/train_data.pt')`); or the same
     * template, through names of each function's own (Pluralistic's `save_networks` and
     * `load_networks`: `'%s_net_%s.pth' % (which_epoch, name)`, joined onto the folder) */
    /* (also the file a path parameter's default names, `def load_feats(path="feats.pt")`) */
    const DlFunction *fn = fact->place->function;
    const DlExpr *lit = last_literal_in(ctx, path_source(ctx, fact, path), fn ? &fn->body : NULL,
                                        fact->call->span.start, 0);
    return lit && lit->name && strchr(lit->name, '.') &&
           any_save(ctx, &rule_module(ctx)->body, saved_from_the_cpu_to_file, lit->name, 0);
}

/* The name of a method of `cls` that saves the object's own state to its parameter
 * (`def save(self, PATH): torch.save(self.state_dict(), PATH)`), or to the path written as
 * `want` (`torch.save(self.state_dict(), ACTOR_PATH)`; NULL: none), or NULL. */
static const char *method_saving_its_own_state(DlRuleContext *ctx, const DlClass *cls,
                                               const char *want) {
    for (uint32_t i = 0; i < cls->body.count; i++) {
        const DlStmt *d = cls->body.items[i];
        const DlFunction *m = d->kind == DL_ST_DEF ? d->parts->func : NULL;
        if (!m || m->param_count < 2) continue;
        for (uint32_t k = 0; k < m->body.count; k++) {
            const DlStmt *s = m->body.items[k];
            if (s->kind != DL_ST_EXPR || !is_torch_save(s->value)) continue;
            const DlExpr *obj = dl_ir_positional(s->value, 0);
            const DlExpr *path = dl_ir_positional(s->value, 1);
            const char *saved = obj ? rule_text(ctx, obj->span) : "";
            bool to_its_parameter = path && path->kind == DL_EX_NAME &&
                                    dl_ir_param_index(m, path->name) > 0;
            bool to_that_path = path && want && same_code(rule_text(ctx, path->span), want);
            if ((to_its_parameter || to_that_path) &&
                (strcmp(saved, "self.state_dict()") == 0 || strcmp(saved, "self") == 0))
                return m->name;
        }
    }
    return NULL;
}

/* What every_save_call_after_a_cpu_move counts. */
typedef struct {
    const char *method;
    uint32_t calls, after_a_cpu_move;
} SaveCalls;

static void count_save_calls(DlRuleContext *ctx, const DlBlock *b, SaveCalls *c, int depth) {
    for (uint32_t i = 0; depth < 32 && i < b->count; i++) {
        const DlStmt *s = b->items[i];
        const DlBlock *own = s->kind == DL_ST_DEF && s->parts->func    ? &s->parts->func->body
                             : s->kind == DL_ST_CLASS && s->parts->cls ? &s->parts->cls->body
                                                                       : NULL;
        if (own) {
            count_save_calls(ctx, own, c, depth + 1);
            continue;
        }
        const DlExpr *v = s->kind == DL_ST_EXPR ? s->value : NULL;
        if (v && v->kind == DL_EX_CALL && v->object && v->object->kind == DL_EX_ATTR &&
            v->object->name && strcmp(v->object->name, c->method) == 0 && v->object->object &&
            !dl_ir_is_self(v->object->object) && !is_torch_save(v)) {
            /* a receiver the file never moves is no module of the class (`anim.save(gif)`) */
            const char *r = rule_text(ctx, v->object->object->span);
            const DlSource *src = dl_rule_source(ctx);
            DlArena *arena = dl_rule_arena(ctx);
            bool moved = dl_source_mentions(src, dl_arena_printf(arena, "%s.cpu(", r)) ||
                         dl_source_mentions(src, dl_arena_printf(arena, "%s.cuda(", r)) ||
                         dl_source_mentions(src, dl_arena_printf(arena, "%s.to(", r));
            c->calls += moved;
            if (moved && moved_to_the_cpu_before(ctx, r, b, i)) c->after_a_cpu_move++;
        }
        const DlBlock *inner;
        for (uint32_t k = 0; (inner = dl_stmt_block(s, k)); k++)
            count_save_calls(ctx, inner, c, depth + 1);
    }
}

/* A method of a class loading its parameter (`def load(self, PATH):
 * self.load_state_dict(torch.load(PATH))`), or a path written out, where a method of the same
 * class saves the object's own state to its parameter (or to that path), and the file calls
 * that save only right after moving the object to the CPU (`self.net.cpu()`, then
 * `self.net.save(NET_PATH)`: sungyubkim's agents): the checkpoint is always written from the
 * CPU. */
static bool saved_by_its_class_after_a_cpu_move(DlRuleContext *ctx, const DlCallFact *fact) {
    const DlFunction *fn = fact->place->function;
    const DlExpr *path = dl_ir_positional(fact->call, 0);
    if (!fn || !fn->owner || !path || (path->kind != DL_EX_NAME && path->kind != DL_EX_ATTR))
        return false;
    bool parameter = path->kind == DL_EX_NAME && dl_ir_param_index(fn, path->name) > 0;
    const char *want = parameter ? NULL : rule_text(ctx, path->span);
    SaveCalls c = {.method = method_saving_its_own_state(ctx, fn->owner, want)};
    if (!c.method) return false;
    count_save_calls(ctx, &rule_module(ctx)->body, &c, 0);
    return c.calls && c.after_a_cpu_move == c.calls;
}

/* The string a module-level constant holds: `SCHEDULER_NAME = "scheduler.pt"` (Hugging Face
 * Trainer's copies), bound once at the top of the file; NULL otherwise. */
static const DlExpr *module_string_constant(DlRuleContext *ctx, const char *name) {
    const DlBlock *body = &rule_module(ctx)->body;
    const DlExpr *found = NULL;
    for (uint32_t i = 0; i < body->count; i++) {
        const DlStmt *s = body->items[i];
        if (s->kind != DL_ST_ASSIGN || s->target_count != 1 ||
            s->targets[0]->kind != DL_EX_NAME || strcmp(s->targets[0]->name, name) != 0)
            continue;
        if (found || !s->value || s->value->kind != DL_EX_STRING) return NULL; /* bound twice */
        found = s->value;
    }
    return found;
}

/* `with open(path, "rb") as f:` in `b` (or a block in it, not nested defs), starting before
 * `before`, binding `name`: the last such `open(...)` call, or NULL. */
static const DlExpr *opened_as(const DlBlock *b, const char *name, uint32_t before, int depth) {
    const DlExpr *found = NULL;
    for (uint32_t i = 0; b && depth < 16 && i < b->count && b->items[i]->span.start < before; i++) {
        const DlStmt *s = b->items[i];
        if (s->kind == DL_ST_DEF || s->kind == DL_ST_CLASS) continue;
        for (uint32_t w = 0; s->kind == DL_ST_WITH && w < s->with_count && w < s->target_count;
             w++) {
            const DlExpr *t = s->targets[w], *c = s->withs[w];
            if (t && t->kind == DL_EX_NAME && strcmp(t->name, name) == 0 && c &&
                c->kind == DL_EX_CALL && c->object && c->object->kind == DL_EX_NAME &&
                strcmp(c->object->name, "open") == 0)
                found = c;
        }
        const DlBlock *inner;
        for (uint32_t k = 0; (inner = dl_stmt_block(s, k)); k++) {
            const DlExpr *in = opened_as(inner, name, before, depth + 1);
            if (in) found = in;
        }
    }
    return found;
}

static const DlFunction *function_around(const DlBlock *b, uint32_t at, const DlFunction *outer,
                                         int depth);

/* The body of the function around byte `at`, or the file's top level. */
static const DlBlock *scope_around(DlRuleContext *ctx, uint32_t at) {
    const DlModuleIR *m = rule_module(ctx);
    const DlFunction *fn = function_around(&m->body, at, NULL, 0);
    return fn ? &fn->body : &m->body;
}

/* What literal_of_every_argument asks of each call in the file. */
typedef struct ArgumentLiteral {
    DlRuleContext *ctx;
    const DlFunction *fn;
    int param;
    int depth;             /* last_literal_in's */
    const DlExpr *literal; /* what the calls so far hand it, all the same */
    bool other;            /* a call hands something else, or nothing known */
} ArgumentLiteral;

static bool note_argument_literal(const DlExpr *e, const DlBlock *scope, void *data) {
    ArgumentLiteral *a = data;
    const DlExpr *arg = dl_ir_argument_for(e, a->fn, (uint32_t)a->param, 0);
    const DlExpr *lit = arg ? last_literal_in(a->ctx, arg, scope, e->span.start, a->depth + 1)
                            : NULL;
    if (!lit || (a->literal && strcmp(rule_text(a->ctx, lit->span),
                                      rule_text(a->ctx, a->literal->span)) != 0))
        a->other = true;
    a->literal = lit;
    return a->other;
}

/* The literal every call in the file hands parameter `param` of the top-level function `fn`
 * (`make_server_eval_fn(args.graph_file, ...)`, the option's default naming the file), or NULL
 * when a call hands another, or one not known. */
static const DlExpr *literal_of_every_argument(DlRuleContext *ctx, const DlFunction *fn,
                                               int param, int depth) {
    if (fn->owner || fn->parent || fn->params[param].star) return NULL;
    ArgumentLiteral a = {.ctx = ctx, .fn = fn, .param = param, .depth = depth};
    /* (not its own calls, which hand it on) */
    return each_call_of(ctx, fn, fn, note_argument_literal, &a) && !a.other ? a.literal : NULL;
}

/* The last string literal written in `e` (`"scheduler.pt"` in `os.path.join(ckpt,
 * "scheduler.pt")`), or held by a module-level constant named there (`SCHEDULER_NAME`), or
 * NULL; with `scope`, a name bound in it before `before` counts as what it was bound to
 * (`path = os.path.join(self.save_dir, filename)`, `filename = '%s_net_%s.pth' % ...`). */
static const DlExpr *last_literal_in(DlRuleContext *ctx, const DlExpr *e, const DlBlock *scope,
                                     uint32_t before, int depth) {
    if (!e || depth > 8) return NULL;
    /* `opts.trainDatasetPath`, an option of the file's own command line: its default as
     * written (Seq2Seq-raw's training scripts load the datasets its preprocessing script
     * saved under those defaults) */
    const DlExpr *option = dl_rule_option_default(ctx, rule_module(ctx), e);
    if (option && option->kind == DL_EX_STRING) return option;
    /* ... or the last literal in it (`default=os.path.join(REPO_ROOT, "st_graph.pt")`) */
    if (option && option != e) return last_literal_in(ctx, option, NULL, 0, depth + 1);
    if (e->kind == DL_EX_STRING) return e;
    /* `'/{}_net.pth'.format(epoch)`: the template */
    if (e->kind == DL_EX_CALL && e->object && e->object->kind == DL_EX_ATTR && e->object->name &&
        strcmp(e->object->name, "format") == 0 && e->object->object &&
        e->object->object->kind == DL_EX_STRING)
        return e->object->object;
    /* `open(path, "rb")`: the file's name, not its mode */
    if (e->kind == DL_EX_CALL && e->object && e->object->kind == DL_EX_NAME &&
        strcmp(e->object->name, "open") == 0)
        return last_literal_in(ctx, dl_ir_positional(e, 0), scope, before, depth + 1);
    if (e->kind == DL_EX_NAME) {
        const DlExpr *constant = module_string_constant(ctx, e->name);
        if (constant || !scope) return constant;
        const DlExpr *bound = dl_ir_last_assignment(scope, e->name, before);
        /* `with open(os.path.join(d, 'model.pth'), 'rb') as f:` then `torch.load(f)` */
        if (!bound) bound = opened_as(scope, e->name, before, 0);
        /* a name of the module the function reads (`OUTPUT_FILE = os.path.join(REPO_ROOT,
         * "st_graph.pt")`, a preprocessing script's output, which its main may set again from
         * an option defaulting to it): the literal of its binding there */
        const DlBlock *top = &rule_module(ctx)->body;
        if (!bound && scope != top) {
            const DlFunction *fn = function_around(top, e->span.start, NULL, 0);
            int param = fn ? dl_ir_param_index(fn, e->name) : -1;
            /* a parameter: what every call hands it */
            if (param >= 0) return literal_of_every_argument(ctx, fn, param, depth);
            const DlExpr *global = dl_ir_last_assignment(top, e->name, UINT32_MAX);
            return global ? last_literal_in(ctx, global, NULL, 0, depth + 1) : NULL;
        }
        return bound ? last_literal_in(ctx, bound, scope, bound->span.start, depth + 1) : NULL;
    }
    const DlExpr *found = NULL;
    for (uint32_t i = 0; i < e->arg_count; i++) {
        const DlExpr *l = last_literal_in(ctx, e->args[i].value, scope, before, depth + 1);
        if (l) found = l;
    }
    for (uint32_t i = 0; i < e->item_count; i++) {
        const DlExpr *l = last_literal_in(ctx, e->items[i], scope, before, depth + 1);
        if (l) found = l;
    }
    return found;
}

/* `text`, a string literal as written, names a file without tensors: `"model_args.pth"`,
 * `"training_args.bin"`, `"args.pth"`: by its name, a file of settings (an
 * argparse Namespace, a dataclass), saved by the training script: no tensors to restore. So are
 * the files Hugging Face's Trainer names for its LR scheduler's and grad scaler's state (Python
 * numbers) and its RNG states (CPU byte tensors): `"scheduler.pt"`, `"scaler.pt"`,
 * `f"rng_state_{rank}.pth"`. */
static bool names_a_file_without_tensors(const char *text) {
    const char *base = strrchr(text, '/');
    if (base) {
        base++;
    } else { /* past the prefix (`f`, `rb`) and the quotes */
        base = text + strspn(text, "rbfuRBFU");
        base += strspn(base, "\"'");
    }
    /* `vocab.pt`, `vocab_freq-5.pt`: a vocabulary, maps of tokens and counts (an image
     * captioner's, saved and loaded by its runner) */
    return strncmp(base, "args.", 5) == 0 || strstr(base, "_args.") || strstr(base, "-args.") ||
           strncmp(base, "scheduler.pt", 12) == 0 || strncmp(base, "scaler.pt", 9) == 0 ||
           strncmp(base, "rng_state", 9) == 0 || strncmp(base, "vocab", 5) == 0;
}

/* `text`, a string literal as written, names a checkpoint published the way torch.hub names
 * what it downloads, the name then a dash and the start of its SHA-256 (`resnet34-333f7ec4.pth`,
 * `vgg16-397923af.pth`: torchvision's model zoo, kept beside an attack script): weights
 * published for anyone to load are saved from the CPU. */
static bool names_a_published_checkpoint(const char *text) {
    const char *base = strrchr(text, '/');
    base = base ? base + 1 : text + strspn(text, "rbfuRBFU\"'");
    const char *dash = strrchr(base, '-');
    if (!dash || dash == base) return false;
    size_t hex = strspn(dash + 1, "0123456789abcdef");
    const char *ext = dash + 1 + hex;
    return hex >= 8 && (strncmp(ext, ".pth", 4) == 0 || strncmp(ext, ".pt", 3) == 0);
}

/* The expression a load's path comes from: the path itself, or what a name was last bound to
 * before the load in the same function (`rng_file = os.path.join(ckpt, "rng_state.pth")`, in a
 * branch of its own in the Trainer's copies). */
static const DlExpr *path_source(DlRuleContext *ctx, const DlCallFact *fact, const DlExpr *path) {
    if (path->kind != DL_EX_NAME) return path;
    const DlFunction *fn = fact->place->function;
    const DlBlock *body = fn ? &fn->body : &rule_module(ctx)->body;
    const DlExpr *bound = dl_ir_last_assignment(body, path->name, fact->call->span.start);
    if (!bound) bound = opened_as(body, path->name, fact->call->span.start, 0);
    /* `def load_feats(path="feats.pt"):`, a parameter unbound in the body: the file its
     * default names */
    int param = !bound && fn ? dl_ir_param_index(fn, path->name) : -1;
    const DlExpr *fallback = param >= 0 ? fn->params[param].default_value : NULL;
    if (fallback && fallback->kind == DL_EX_STRING) bound = fallback;
    return bound ? bound : path;
}

/* A value known to hold no tensor: strings, numbers, None, and lists, tuples and dicts of
 * them all the way down. */
static bool value_holds_no_tensor(const DlValue *v, int depth) {
    if (!v || depth > 8) return false;
    if (v->kind == DL_KIND_STRING || v->kind == DL_KIND_SCALAR || v->kind == DL_KIND_NONE)
        return true;
    if (v->kind != DL_KIND_SEQ) return false;
    if (v->items) {
        for (uint32_t i = 0; i < v->item_count; i++)
            if (!value_holds_no_tensor(v->items[i], depth + 1)) return false;
        return v->item_count > 0;
    }
    return value_holds_no_tensor(v->elem, depth + 1);
}

/* What an LR scheduler's or a GradScaler's `state_dict()` holds (Python numbers), or the RNG
 * states (`torch.random.get_rng_state()`, CPU byte tensors even for CUDA's): no device tensor. */
static bool holds_no_device_tensors(DlRuleContext *ctx, const DlExpr *obj, const DlBlock *b,
                                    uint32_t before) {
    const char *text = rule_text(ctx, obj->span);
    if (strstr(text, "get_rng_state")) return true;
    /* the command line's options (`torch.save(opt, ...)`, seq2seq-keyphrase's
     * `<exp>.initial.config`): an argparse Namespace of settings */
    static const char *const settings[] = {"opt", "opts", "args", "hparams", NULL};
    if (obj->kind == DL_EX_NAME && dl_name_in_list(obj->name, settings)) return true;
    /* `{'epoch': epoch}` (meshgraphnets' epoch checkpoint): counters, no tensor; or the
     * options' settings (`{'hidden_size': args.hidden_size}`: DeepLog's model_info.pth) */
    static const char *const counters[] = {"epoch", "step", "global_step", "iteration", NULL};
    bool only_counters = obj->kind == DL_EX_DICT && obj->item_count > 0;
    for (uint32_t k = 1; only_counters && k < obj->item_count; k += 2) { /* key, value, ... */
        const DlExpr *v = obj->items[k];
        bool setting = v && v->kind == DL_EX_ATTR && v->object && v->object->kind == DL_EX_NAME &&
                       dl_name_in_list(v->object->name, settings);
        only_counters = obj->items[k - 1] && v && (v->kind == DL_EX_NUMBER || setting ||
                              (v->kind == DL_EX_NAME && dl_name_in_list(v->name, counters)));
    }
    if (only_counters) return true;
    if (obj->kind == DL_EX_NAME) { /* `rng_states = {"cpu": torch.random.get_rng_state()}` */
        uint32_t j = assignment_before(b, obj->name, before);
        if (j < before) return holds_no_device_tensors(ctx, b->items[j]->value, b, j);
    }
    /* `examples = make_examples(folder)`, a function of the project that returns a list of
     * strings and numbers (Structure-free-certified-NLP's text examples) */
    if (obj->kind == DL_EX_CALL) {
        const DlFunctionInfo *fi = called_project_function(ctx, obj);
        if (fi && fi->ret && value_holds_no_tensor(fi->ret, 0)) return true;
    }
    if (obj->kind != DL_EX_CALL || !obj->object || obj->object->kind != DL_EX_ATTR ||
        !obj->object->name || strcmp(obj->object->name, "state_dict") != 0 || !obj->object->object)
        return false;
    const DlExpr *owner = obj->object->object;
    const char *name = owner->kind == DL_EX_ATTR || owner->kind == DL_EX_NAME ? owner->name : NULL;
    return name && (strstr(name, "scheduler") || strstr(name, "scaler"));
}

/* Saved under the file name `want` (a literal), something with no device tensor in it (HF
 * Trainer copies: `torch.save(self.lr_scheduler.state_dict(), os.path.join(output_dir,
 * "scheduler.pt"))`, then `torch.load(os.path.join(checkpoint, "scheduler.pt"))`) */
static bool saved_without_tensors_as(DlRuleContext *ctx, const DlExpr *obj, const DlExpr *path,
                                     const DlBlock *b, uint32_t i, const char *want) {
    /* through a name of the saving function's (`path = os.path.join(d, 'info.pth')`, or the
     * file `with open(path, 'wb') as f:` opens) */
    uint32_t at = b->items[i]->span.start;
    const DlExpr *lit = last_literal_in(ctx, path, scope_around(ctx, at), at, 0);
    return lit && strcmp(rule_text(ctx, lit->span), want) == 0 &&
           holds_no_device_tensors(ctx, obj, b, i);
}

/* `name` holds `word`, in any case (`cfg.CONFIG_PATH`, `config_path`). */
static bool name_has(const char *name, const char *word) {
    size_t n = strlen(word);
    for (const char *p = name; *p; p++)
        if (strncasecmp(p, word, n) == 0) return true;
    return false;
}

/* A checkpoint with no tensors in it loads anywhere: settings, or what the file saves under
 * that file name from a scheduler, a grad scaler or the RNG states. */
/* `torch.from_numpy(torch.load(path))`: what is loaded is a NumPy array (from_numpy takes
 * nothing else), which holds no tensor storage (recurrent-transformer's GloVe matrix). */
static bool loads_a_numpy_array(DlRuleContext *ctx, const DlCallFact *fact) {
    static const char wrapper[] = "from_numpy(";
    const size_t n = sizeof wrapper - 1;
    const DlSource *src = dl_rule_source(ctx);
    size_t at = fact->call->span.start;
    while (at > 0 && (src->text[at - 1] == ' ' || src->text[at - 1] == '\t'))
        at--;
    return at >= n && memcmp(src->text + at - n, wrapper, n) == 0;
}

/* (or only CPU tensors: a published checkpoint, names_a_published_checkpoint) */
static bool holds_no_tensors(DlRuleContext *ctx, const DlCallFact *fact) {
    if (loads_a_numpy_array(ctx, fact)) return true;
    const DlExpr *path = dl_ir_positional(fact->call, 0);
    if (!path) return false;
    /* `torch.load(cfg.config_path)`: a pickled model configuration (a Kaggle solution's Hugging
     * Face config, handed to `AutoModel.from_config`), named for it and for nothing with
     * weights in it */
    if ((path->kind == DL_EX_NAME || path->kind == DL_EX_ATTR) && path->name &&
        name_has(path->name, "config")) {
        static const char *const weights[] = {"ckpt", "checkpoint", "model", "weight", "state",
                                              NULL};
        bool named_for_weights = false;
        for (const char *const *w = weights; *w && !named_for_weights; w++)
            named_for_weights = name_has(path->name, *w);
        if (!named_for_weights) return true;
    }
    /* (through the function's names too: `name = f"vocab-{threshold}.pt"`, then
     * `torch.load(os.path.join(folder, name))`) */
    const DlFunction *fn = fact->place->function;
    const DlExpr *lit = last_literal_in(ctx, path_source(ctx, fact, path),
                                        fn ? &fn->body : &rule_module(ctx)->body,
                                        fact->call->span.start, 0);
    if (!lit) return false;
    const char *name = rule_text(ctx, lit->span);
    return names_a_file_without_tensors(name) || names_a_published_checkpoint(name) ||
           any_save(ctx, &rule_module(ctx)->body, saved_without_tensors_as, name, 0);
}

/* `torch.set_default_tensor_type('torch.cuda.FloatTensor')` (nerf-pytorch's `__main__`) or
 * `torch.set_default_device("cuda")`: every factory after it allocates on the GPU. */
static bool makes_cuda_the_default(DlRuleContext *ctx, const char *callee, const DlExpr *call) {
    if (strcmp(callee, "torch.set_default_tensor_type") != 0 &&
        strcmp(callee, "torch.set_default_device") != 0)
        return false;
    const DlExpr *a = dl_ir_positional(call, 0);
    if (!a) return false;
    const char *text = a->kind == DL_EX_STRING ? a->name : dl_ir_dotted(dl_rule_arena(ctx), a);
    return text && (strncmp(text, "torch.cuda.", 11) == 0 || strcmp(text, "cuda") == 0 ||
                    strncmp(text, "cuda:", 5) == 0);
}

static bool needs_a_gpu(DlRuleContext *ctx, const DlExpr *e);

/* A statement of `b` (or of a `with` block at its top level) fails without a GPU before any
 * branch or loop: a worker's `with torch.no_grad(), cuda.device(process_id): model.cuda()`. */
static bool block_needs_a_gpu_first(DlRuleContext *ctx, const DlBlock *b, int depth) {
    for (uint32_t i = 0; depth < 8 && i < b->count; i++) {
        const DlStmt *s = b->items[i];
        if (s->kind == DL_ST_DEF || s->kind == DL_ST_CLASS) continue;
        if ((s->kind == DL_ST_EXPR || s->kind == DL_ST_ASSIGN) && needs_a_gpu(ctx, s->value))
            return true;
        if (s->kind == DL_ST_WITH && block_needs_a_gpu_first(ctx, &s->parts->body, depth + 1))
            return true;
        if (s->kind != DL_ST_EXPR && s->kind != DL_ST_ASSIGN) return false;
    }
    return false;
}

/* block_needs_a_gpu_first of the body a call runs (a spawned worker, a method of the same
 * class), a few bodies deep: bodies call each other, and a worker may spawn itself
 * (`def work(rank): mp.spawn(work, ...)`). */
static bool body_needs_a_gpu_first(DlRuleContext *ctx, const DlBlock *body) {
    static _Thread_local int bodies_followed;
    if (bodies_followed > 4) return false;
    bodies_followed++;
    bool needs = block_needs_a_gpu_first(ctx, body, 0);
    bodies_followed--;
    return needs;
}

static bool always_a_cuda_device(DlRuleContext *ctx, const DlExpr *d);

/* What `torch.device(...)` is handed that makes it a GPU: a CUDA device, a GPU's index by its
 * name (always_a_cuda_device), or an index written out (`0`). */
static bool index_or_cuda_device(DlRuleContext *ctx, const DlExpr *d) {
    return d && ((d->kind == DL_EX_NUMBER && d->name && isdigit((unsigned char)d->name[0]) &&
                  !strpbrk(d->name, ".eEjJ")) ||
                 always_a_cuda_device(ctx, d));
}

/* `torch.device('cuda:{}'.format(args.local_rank))`, `f"cuda:{rank}"`, `torch.device("cuda", i)`,
 * `"cuda"`: a CUDA device whatever is put in it. */
static bool always_a_cuda_device(DlRuleContext *ctx, const DlExpr *d) {
    if (!d) return false;
    if (dl_ir_names_cuda_device(d)) return true;
    /* `torch.device("cuda", rank) if num_gpus > 1 else "cuda"`: a GPU either way (StyleGAN2's
     * metrics) */
    if (d->kind == DL_EX_COND && d->item_count == 2)
        return always_a_cuda_device(ctx, d->object) && always_a_cuda_device(ctx, d->items[1]);
    /* `gpu_id if args.ddp else "cuda"`: a name for a GPU's index (a spawned worker's `gpu`,
     * `local_rank`), which as a device is that GPU (long-tailed-ood-detection's stages) */
    static const char *const gpu_indices[] = {"gpu",      "gpu_id",     "gpu_idx",   "gpu_index",
                                              "local_rank", "gpu_rank", "device_id", NULL};
    /* (`args.local_rank` too) */
    if ((d->kind == DL_EX_NAME || d->kind == DL_EX_ATTR) && d->name &&
        dl_name_in_list(d->name, gpu_indices))
        return true;
    if (d->kind == DL_EX_CALL && d->object && d->object->kind == DL_EX_ATTR && d->object->name &&
        strcmp(d->object->name, "device") == 0 && d->arg_count >= 1 && !d->args[0].keyword) {
        d = d->args[0].value;
        /* `torch.device(args.local_rank if is_distributed else 0)`: a GPU's index either way,
         * and `torch.device(0)` is `cuda:0` (ContextAware-PoseFormer's train.py) */
        if (d && d->kind == DL_EX_COND && d->item_count == 2)
            return index_or_cuda_device(ctx, d->object) &&
                   index_or_cuda_device(ctx, d->items[1]);
    }
    if (d && d->kind == DL_EX_CALL && d->object && d->object->kind == DL_EX_ATTR &&
        d->object->name && strcmp(d->object->name, "format") == 0)
        d = d->object->object;
    if (!d || d->kind != DL_EX_STRING) return false;
    const char *text = d->name;
    if (!text) { /* an f-string: its text, past the prefix and the quotes */
        text = rule_text(ctx, d->span);
        while (*text && strchr("fFrRbBuU", *text))
            text++;
        while (*text == '"' || *text == '\'')
            text++;
    }
    /* `torch.device("mps")`: Apple's GPU, which a machine without one lacks as it lacks CUDA
     * (Show-Attend-and-Tell's MPS-only training script) */
    return strncmp(text, "cuda", 4) == 0 ||
           (strncmp(text, "mps", 3) == 0 && (!text[3] || text[3] == '"' || text[3] == '\'' || text[3] == ':'));
}

/* Whether every binding of `name` in `b` (and the blocks in it, not nested defs) is a CUDA
 * device (always_a_cuda_device), counting them in *count; any other binding of it (unpacked, a
 * loop's variable, another value) says no. */
static bool bound_only_to_cuda(DlRuleContext *ctx, const DlBlock *b, const char *name,
                               uint32_t *count, int depth) {
    for (uint32_t i = 0; depth < 16 && i < b->count; i++) {
        const DlStmt *s = b->items[i];
        if (s->kind == DL_ST_DEF || s->kind == DL_ST_CLASS) continue;
        for (uint32_t t = 0; t < s->target_count; t++) {
            const DlExpr *target = s->targets[t];
            if (!target) continue; /* `with open(p):`, an item bound to nothing */
            bool named = target->kind == DL_EX_NAME && strcmp(target->name, name) == 0;
            if (named && s->kind == DL_ST_ASSIGN && always_a_cuda_device(ctx, s->value)) {
                (*count)++;
                continue;
            }
            if (named || (target->kind != DL_EX_NAME && dl_ir_target_names(target, name)))
                return false;
        }
        const DlBlock *inner;
        for (uint32_t k = 0; (inner = dl_stmt_block(s, k)); k++)
            if (!bound_only_to_cuda(ctx, inner, name, count, depth + 1)) return false;
    }
    return true;
}

/* The innermost function of the file whose body holds the byte `at` (`outer` when none does). */
static const DlFunction *function_around(const DlBlock *b, uint32_t at, const DlFunction *outer,
                                         int depth) {
    for (uint32_t i = 0; depth < 32 && i < b->count; i++) {
        const DlStmt *s = b->items[i];
        if (at < s->span.start || at >= s->span.end) continue;
        if (s->kind == DL_ST_DEF && s->parts->func)
            return function_around(&s->parts->func->body, at, s->parts->func, depth + 1);
        if (s->kind == DL_ST_CLASS && s->parts->cls)
            return function_around(&s->parts->cls->body, at, outer, depth + 1);
        const DlBlock *inner;
        for (uint32_t k = 0; (inner = dl_stmt_block(s, k)); k++) {
            const DlFunction *fn = function_around(inner, at, NULL, depth + 1);
            if (fn) return fn;
        }
        return outer;
    }
    return outer;
}

/* Whether the last statement before the byte `at` that binds `name` binds it, as a whole
 * statement, to a CUDA device: `device = "cuda" if ok else "cpu"` overwritten by `device =
 * "cuda"` (MSPFN-deraining's scripts); in `b` and, in order, in the block of the statement of `b`
 * that holds `at` (an `if __name__ == "__main__":` block). `cuda`: the answer so far. */
static bool last_bound_to_cuda(DlRuleContext *ctx, const DlBlock *b, const char *name,
                                  uint32_t at, bool cuda, int depth) {
    for (uint32_t i = 0; depth < 16 && i < b->count; i++) {
        DlStmt *s = b->items[i];
        if (s->span.start > at) break;
        if (s->kind == DL_ST_DEF || s->kind == DL_ST_CLASS) continue;
        if (s->span.end > at) { /* the statement that holds it: on inside, in its block */
            const DlBlock *inner;
            for (uint32_t k = 0; (inner = dl_stmt_block(s, k)); k++)
                if (inner->count && inner->items[0]->span.start <= at &&
                    at <= inner->items[inner->count - 1]->span.end)
                    return last_bound_to_cuda(ctx, inner, name, at, cuda, depth + 1);
            break;
        }
        bool direct = s->kind == DL_ST_ASSIGN && s->target_count == 1 &&
                      s->targets[0]->kind == DL_EX_NAME && strcmp(s->targets[0]->name, name) == 0;
        if (direct) {
            cuda = always_a_cuda_device(ctx, s->value);
            continue;
        }
        uint32_t count = 0;
        DlBlock one = {.items = &s, .count = 1};
        if (!bound_only_to_cuda(ctx, &one, name, &count, 0) || count) cuda = false;
    }
    return cuda;
}

/* How many statements of `b` (and the blocks in it) bind `obj.attr`; `*named`: the value of the
 * last that is `obj.attr = name` at the top of `b`, before the byte `before`. */
static uint32_t attribute_bindings(const DlBlock *b, const char *obj, const char *attr,
                                   uint32_t before, const DlExpr **named, int depth) {
    uint32_t count = 0;
    for (uint32_t i = 0; depth < 16 && i < b->count; i++) {
        const DlStmt *s = b->items[i];
        if (s->kind == DL_ST_DEF || s->kind == DL_ST_CLASS) continue;
        for (uint32_t t = 0; t < s->target_count; t++) {
            const DlExpr *target = s->targets[t];
            if (!target) continue;
            bool unpacked = target->kind == DL_EX_TUPLE || target->kind == DL_EX_LIST;
            for (uint32_t k = 0; k < (unpacked ? target->item_count : 1); k++) {
                const DlExpr *part = unpacked ? target->items[k] : target;
                if (part->kind != DL_EX_ATTR || !part->name || !part->object ||
                    part->object->kind != DL_EX_NAME || strcmp(part->object->name, obj) != 0 ||
                    strcmp(part->name, attr) != 0)
                    continue;
                count++;
                if (!unpacked && depth == 0 && s->kind == DL_ST_ASSIGN && s->target_count == 1 &&
                    s->span.end <= before && s->value && s->value->kind == DL_EX_NAME)
                    *named = s->value;
            }
        }
        const DlBlock *inner;
        for (uint32_t k = 0; (inner = dl_stmt_block(s, k)); k++)
            count += attribute_bindings(inner, obj, attr, before, named, depth + 1);
    }
    return count;
}

/* `args.device` that the function sets once, at its top, to a name before `at` (`args.device =
 * device`, after `device = torch.device("cuda", args.local_rank)` on every path: the BERT-NER
 * scripts' main): that name; else NULL. */
static const DlExpr *attribute_holding_a_name(const DlBlock *body, const DlExpr *d, uint32_t at) {
    if (d->kind != DL_EX_ATTR || !d->name || !d->object || d->object->kind != DL_EX_NAME ||
        dl_ir_is_self(d->object))
        return NULL;
    const DlExpr *named = NULL;
    uint32_t count = attribute_bindings(body, d->object->name, d->name, at, &named, 0);
    return count == 1 ? named : NULL;
}

/* `model.to(device)` (or a call given `device=device`) where the function binds `device` only
 * to CUDA devices (`torch.device('cuda:{}'.format(args.local_rank))`: panoptic-deeplab's
 * train_net): as `.cuda()`, it fails without a GPU. */
static bool moves_to_a_cuda_variable(DlRuleContext *ctx, const DlExpr *e) {
    /* `model.to(device).eval()`: the move at the start of a chain */
    while (e && e->kind == DL_EX_CALL && e->object && e->object->kind == DL_EX_ATTR &&
           e->object->name && strcmp(e->object->name, "to") != 0 && e->object->object &&
           e->object->object->kind == DL_EX_CALL)
        e = e->object->object;
    if (!e || e->kind != DL_EX_CALL || !e->object) return false;
    bool move = e->object->kind == DL_EX_ATTR && e->object->name &&
                strcmp(e->object->name, "to") == 0;
    /* `create_model(cfg, device=device)`: a call handed a GPU-only device to build on
     * (KD-StyleGAN2's FID script) fails without one as a move there does */
    const DlArg *given = move ? NULL : dl_ir_keyword(e, "device");
    if (!move && !given) return false;
    const DlExpr *d = move ? dl_ir_positional(e, 0) : given->value;
    const DlArg *kw = d ? NULL : dl_ir_keyword(e, "device");
    if (kw) d = kw->value;
    if (!d) return false;
    const DlModuleIR *m = rule_module(ctx);
    const DlFunction *fn = function_around(&m->body, e->span.start, NULL, 0);
    /* `model.to(args.device)` after `args.device = device` */
    const DlExpr *held = fn ? attribute_holding_a_name(&fn->body, d, e->span.start) : NULL;
    if (held) d = held;
    if (d->kind != DL_EX_NAME) return false;
    if (fn && dl_ir_param_index(fn, d->name) >= 0) return false;
    uint32_t count = 0;
    const DlBlock *body = fn ? &fn->body : &m->body;
    bool only_cuda = bound_only_to_cuda(ctx, body, d->name, &count, 0);
    /* a name the function never binds is the module's: `if torch.backends.mps.is_available():
     * mps_device = torch.device("mps")` at the top, then `decoder.to(mps_device)` in main() */
    if (only_cuda && count == 0 && fn) {
        body = &m->body;
        only_cuda = bound_only_to_cuda(ctx, body, d->name, &count, 0);
    }
    return (only_cuda && count > 0) || last_bound_to_cuda(ctx, body, d->name, e->span.start, false, 0);
}

/* `torch.cuda.set_device(i)` or `x.cuda(...)` at the end of a chain or as an argument, CUDA
 * made the default (makes_cuda_the_default), or a call of a function of the project that fails
 * without a GPU before it returns (Deep-Exemplar's `gpu_setup()`, which calls
 * torch.cuda.set_device): fails without a GPU. */
/* `x.to(name)`, `x.cuda(name)`, `x.to(device=name)`: a move to what `name` holds. */
static bool moves_to_the_name(const DlExpr *e, const char *name) {
    if (!e || e->kind != DL_EX_CALL || !e->object || e->object->kind != DL_EX_ATTR ||
        !e->object->name || e->arg_count < 1 ||
        (strcmp(e->object->name, "to") != 0 && strcmp(e->object->name, "cuda") != 0))
        return false;
    const DlExpr *a = e->args[0].value;
    const char *kw = e->args[0].keyword;
    return (!kw || strcmp(kw, "device") == 0) && a && a->kind == DL_EX_NAME &&
           strcmp(a->name, name) == 0;
}

/* `evaluate_task(model, loader)` of `def evaluate_task(model, loader, device="cuda:0")` whose
 * body starts with `model = model.to(device)`: the call leaves the device at its default, a
 * GPU, and fails without one (deep-hedging's evaluation notebooks). */
static bool moves_to_a_cuda_default(DlRuleContext *ctx, const DlFunction *fn, const DlExpr *call) {
    for (uint32_t j = 0; fn && j < fn->param_count; j++) {
        const DlExpr *d = fn->params[j].default_value;
        /* a literal (`"cuda:0"`, `torch.device("cuda")`): the function may be another file's,
         * whose f-string text this file's source does not hold */
        const DlExpr *literal = d && d->kind == DL_EX_CALL && d->arg_count ? d->args[0].value : d;
        bool cuda_default = literal && literal->kind == DL_EX_STRING && literal->name &&
                            always_a_cuda_device(ctx, d);
        bool passed = false;
        for (uint32_t a = 0; cuda_default && a < call->arg_count; a++) {
            const char *kw = call->args[a].keyword;
            passed |= (kw && kw[0] == '*') || (call->args[a].value &&
                                               call->args[a].value->kind == DL_EX_STARRED);
            const char *bound = parameter_bound_to(fn, 0, call, a);
            passed |= bound && strcmp(bound, fn->params[j].name) == 0;
        }
        if (!cuda_default || passed) continue;
        /* before any branch or loop of the body, the parameter not bound anew */
        for (uint32_t i = 0; i < fn->body.count; i++) {
            const DlStmt *s = fn->body.items[i];
            if (s->kind != DL_ST_EXPR && s->kind != DL_ST_ASSIGN) break;
            if (s->kind == DL_ST_EXPR && s->value && s->value->kind == DL_EX_STRING) continue;
            if (moves_to_the_name(s->value, fn->params[j].name)) return true;
            bool rebinds = false;
            for (uint32_t t = 0; t < s->target_count; t++)
                rebinds |= s->targets[t]->kind == DL_EX_NAME &&
                           strcmp(s->targets[t]->name, fn->params[j].name) == 0;
            if (rebinds) break;
        }
    }
    return false;
}

static bool needs_a_gpu(DlRuleContext *ctx, const DlExpr *e) {
    if (!e || e->kind != DL_EX_CALL || !e->object) return false;
    if (dl_ir_moves_to_cuda(e) || moves_to_a_cuda_variable(ctx, e)) return true;
    /* `model.eval().cuda().requires_grad_(False)`: a call further down the chain (PSICHIC's
     * notebook) runs first */
    for (const DlExpr *r = e->object->kind == DL_EX_ATTR ? e->object->object : NULL;
         r && r->kind == DL_EX_CALL && r->object; r = r->object->kind == DL_EX_ATTR ? r->object->object : NULL)
        if (dl_ir_moves_to_cuda(r)) return true;
    /* what a call is handed runs first: `nn.DataParallel(net.cuda())` (OC-CSE's loaders) */
    for (uint32_t i = 0; i < e->arg_count; i++) {
        const DlExpr *a = e->args[i].value;
        if (a && a->kind == DL_EX_CALL && dl_ir_moves_to_cuda(a)) return true;
    }
    const char *callee = dl_ir_dotted(dl_rule_arena(ctx), e->object);
    /* `torch.cuda.set_device(rank)`, `torch.cuda.synchronize()` (URST's timed test scripts),
     * a query of the GPU's properties: each raises without a GPU */
    if (dl_torch_call_needs_a_gpu(callee)) return true;
    /* `init_process_group(backend="nccl", ...)`: NCCL runs only on GPUs (ddpm_deblurring's
     * DDP workers) */
    if (callee && e->object->name && strcmp(e->object->name, "init_process_group") == 0 &&
        dl_ir_names_nccl_backend(e))
        return true;
    /* `from torch import cuda`, then `cuda.set_device(opt.gpu)` (coarse2fine's train.py) */
    if (callee && strcmp(callee, "cuda.set_device") == 0) {
        const DlProject *p = dl_rule_project(ctx);
        const DlFileFacts *file = dl_project_file(p, rule_module(ctx));
        const char *cuda = file ? dl_project_import(file, "cuda") : NULL;
        if (cuda && strcmp(cuda, "torch.cuda") == 0) return true;
    }
    if (callee && makes_cuda_the_default(ctx, callee, e)) return true;
    /* `multiprocessing.spawn(_work, nprocs=n_gpus, args=...)` of a function that needs one
     * (irn's `make_cam.run`: each worker does `model.cuda()`) */
    if (callee && e->object->kind == DL_EX_ATTR && strcmp(e->object->name, "spawn") == 0 &&
        (strstr(callee, "multiprocessing.") || strncmp(callee, "mp.", 3) == 0)) {
        const DlExpr *worker = dl_ir_positional(e, 0);
        const DlProject *p = dl_rule_project(ctx);
        const DlFileFacts *file = dl_project_file(p, rule_module(ctx));
        const DlFunctionInfo *fi = worker && worker->kind == DL_EX_NAME
                                       ? dl_project_find_function(p, file, worker->name)
                                       : NULL;
        return fi && (fi->requires_gpu || body_needs_a_gpu_first(ctx, &fi->fn->body));
    }
    /* `self._setup_()` of a method of the same class that needs one (ROMP's video trainer:
     * `__init__` calls `_setup_`, which does `torch.cuda.set_device(...)`) */
    if (e->object->kind == DL_EX_ATTR && dl_ir_is_self(e->object->object)) {
        const DlFunction *around =
            function_around(&rule_module(ctx)->body, e->span.start, NULL, 0);
        const DlFunction *method =
            around && around->owner ? dl_ir_method_named(around->owner, e->object->name) : NULL;
        const DlFunctionInfo *mi = method ? method->facts : NULL;
        if (!method || method == around) return false;
        if (mi && mi->requires_gpu) return true;
        return body_needs_a_gpu_first(ctx, &method->body);
    }
    if (e->object->kind != DL_EX_NAME) return false;
    const DlProject *p = dl_rule_project(ctx);
    const DlFileFacts *file = dl_project_file(p, rule_module(ctx));
    /* the file's own function, or one it imports (`from run_features_extraction import
     * load_model_from_config`) */
    const char *imported = file ? dl_project_import(file, e->object->name) : NULL;
    const DlFunctionInfo *fi =
        dl_project_find_function(p, file, imported ? imported : e->object->name);
    return fi && (fi->requires_gpu || moves_to_a_cuda_default(ctx, fi->fn, e));
}

static bool block_fails_without_a_gpu(DlRuleContext *ctx, const DlBlock *b, int depth);

/* A method (not a static or class method) of a class whose `__init__` fails without a GPU
 * before anything that may leave it (GaitSet's Model: `self.encoder.cuda()`): no instance is
 * made without one, so the method runs only with one. */
static bool constructed_only_with_a_gpu(DlRuleContext *ctx, const DlFunction *fn) {
    if (strcmp(fn->name, "__init__") == 0) return false;
    for (uint32_t d = 0; d < fn->decorator_count; d++) {
        const DlExpr *dec = fn->decorators[d];
        if (dec && dec->kind == DL_EX_NAME &&
            (strcmp(dec->name, "staticmethod") == 0 || strcmp(dec->name, "classmethod") == 0))
            return false;
    }
    const DlFunction *init = dl_ir_method_named(fn->owner, "__init__");
    return init && block_fails_without_a_gpu(ctx, &init->body, 0);
}

/* A function nested in another (plug-and-play's `load_target_features()` inside `main()`) and
 * defined after a statement of its parent that fails without a GPU (`model =
 * load_model_from_config(...)`, which ends with `model.cuda()`): it runs only with one. */
static bool defined_after_a_gpu_is_required(DlRuleContext *ctx, const DlFunction *fn) {
    const DlFunction *parent = fn ? fn->parent : NULL;
    if (fn && fn->owner && constructed_only_with_a_gpu(ctx, fn)) return true;
    if (fn && !parent) {
        /* a top-level def or class, after a statement at the top of the file that fails
         * without a GPU (`torch.cuda.set_device("cuda:0")`, TabularSemanticParsing's checker):
         * the file cannot even be imported without one */
        const DlBlock *top = &rule_module(ctx)->body;
        for (uint32_t i = 0; i < top->count; i++) {
            const DlStmt *t = top->items[i];
            if (t->span.start <= fn->span.start && fn->span.end <= t->span.end) return false;
            if ((t->kind == DL_ST_EXPR || t->kind == DL_ST_ASSIGN) && needs_a_gpu(ctx, t->value))
                return true;
        }
        return false;
    }
    if (!parent || fn->owner) return false;
    for (uint32_t i = 0; i < parent->body.count; i++) {
        const DlStmt *t = parent->body.items[i];
        if (t->kind == DL_ST_DEF && t->parts && t->parts->func == fn) return false;
        if ((t->kind == DL_ST_EXPR || t->kind == DL_ST_ASSIGN) && needs_a_gpu(ctx, t->value))
            return true;
    }
    return false;
}

static bool block_reaches(const DlModuleIR *m, const DlBlock *b, const DlFunction *target,
                          int depth);

/* A `return`, `raise`, `break` or `continue` in `b` (not in a def nested there) starting at or
 * after `from`: the code after the block may not run. A `break` or `continue` of a loop nested
 * in `b` leaves only that loop (LogEventParsing's `for date in date_list: ... continue` before
 * its `__main__` block's `.cuda()`). */
static bool leaves(const DlBlock *b, uint32_t from, bool in_a_loop, int depth) {
    for (uint32_t i = 0; depth < 32 && i < b->count; i++) {
        const DlStmt *s = b->items[i];
        if (s->kind == DL_ST_DEF || s->kind == DL_ST_CLASS || s->span.end <= from) continue;
        if (s->kind == DL_ST_RETURN || s->kind == DL_ST_RAISE ||
            (!in_a_loop && (s->kind == DL_ST_BREAK || s->kind == DL_ST_CONTINUE)))
            return true;
        bool loop = s->kind == DL_ST_FOR || s->kind == DL_ST_WHILE;
        const DlBlock *inner;
        for (uint32_t k = 0; (inner = dl_stmt_block(s, k)); k++)
            if (leaves(inner, from, in_a_loop || (loop && k == 0), depth + 1)) return true;
    }
    return false;
}

static bool block_may_leave(const DlBlock *b, uint32_t from, int depth) {
    return leaves(b, from, false, depth);
}

/* `if __name__ == "__main__":`, the statement `t` of the file `ctx` reads. */
static bool is_main_guard(DlRuleContext *ctx, const DlStmt *t) {
    const DlSource *src = dl_rule_source(ctx);
    return t->kind == DL_ST_IF && t->value && src &&
           dl_ir_span_mentions(src, t->value->span, "__name__") &&
           dl_ir_span_mentions(src, t->value->span, "__main__");
}

/* `if __name__ == "__main__":` of a script no other file imports: its body runs whenever the
 * file does. */
static bool main_block_of_a_script(DlRuleContext *ctx, const DlStmt *t) {
    const DlModuleIR *m = rule_module(ctx);
    return (m->imported_by_no_other_file || m->read_by_no_other_file) && is_main_guard(ctx, t);
}

/* `b` runs, before anything that may leave it, a statement that fails without a GPU, or an
 * `if` both of whose arms do (`if arch.startswith("vgg"): model.cuda()` / `else: model =
 * model.cuda()`: filter-pruning-geometric-median's main), or a script's `__main__` block that
 * does (LogEventParsing's module test, loading at the top and running `model.cuda()` there). */
static bool block_fails_without_a_gpu(DlRuleContext *ctx, const DlBlock *b, int depth) {
    for (uint32_t i = 0; depth < 16 && i < b->count; i++) {
        const DlStmt *t = b->items[i];
        if (t->kind == DL_ST_DEF || t->kind == DL_ST_CLASS) continue;
        if ((t->kind == DL_ST_EXPR || t->kind == DL_ST_ASSIGN) && needs_a_gpu(ctx, t->value))
            return true;
        if (main_block_of_a_script(ctx, t) &&
            block_fails_without_a_gpu(ctx, &t->parts->body, depth + 1))
            return true;
        if (t->kind == DL_ST_IF && t->parts->orelse.count &&
            block_fails_without_a_gpu(ctx, &t->parts->body, depth + 1) &&
            block_fails_without_a_gpu(ctx, &t->parts->orelse, depth + 1))
            return true;
        /* `if opt.cuda: net.cuda()` of `add_argument('--cuda', action='store_true',
         * default=True)`: no command line turns it off (not `type=bool, default=True`, which
         * `--cuda ''` does) */
        if (t->kind == DL_ST_IF && dl_rule_option_always_on(ctx, rule_module(ctx), t->value) &&
            block_fails_without_a_gpu(ctx, &t->parts->body, depth + 1))
            return true;
        DlBlock one = {(DlStmt **)&b->items[i], 1};
        if (block_may_leave(&one, 0, 0)) return false;
    }
    return false;
}

/* From the statement of `b` that holds the load at `at` (and, inside it, from the load's own
 * statement outwards), over what runs next: 1 when a statement that fails without a GPU
 * (needs_a_gpu) comes before anything that may leave, -1 when something may leave first (a
 * `return`, a `break`), 2 when neither before `b` ends, 0 when `b` does not hold the load. */
static int gpu_after(DlRuleContext *ctx, const DlBlock *b, uint32_t at, int depth) {
    if (depth > 32) return -1;
    uint32_t i = 0;
    while (i < b->count && !(b->items[i]->span.start <= at && at < b->items[i]->span.end)) i++;
    if (i == b->count) return 0;
    const DlStmt *s = b->items[i];
    const DlBlock *inner;
    for (uint32_t k = 0; (inner = dl_stmt_block(s, k)); k++) {
        int r = gpu_after(ctx, inner, at, depth + 1);
        if (r == 1 || r == -1) return r;
        if (r == 2) break; /* the rest of that block said nothing: on after `s` */
    }
    for (uint32_t j = i + 1; j < b->count; j++) {
        const DlStmt *t = b->items[j];
        if (t->kind == DL_ST_DEF || t->kind == DL_ST_CLASS) continue;
        DlBlock one = {(DlStmt **)&b->items[j], 1};
        if (block_fails_without_a_gpu(ctx, &one, 0)) return 1;
        if (block_may_leave(&one, 0, 0)) return -1;
    }
    return 2;
}

/* Before the load, at the top of its function (or script), a statement that fails without a GPU
 * and that the flow does not take for one: `model = model.to(device)` with `device =
 * torch.device('cuda:{}'.format(args.local_rank))` (panoptic-deeplab's train_net). What runs
 * after it runs only with a GPU. */
static bool gpu_required_first_in_block(DlRuleContext *ctx, const DlBlock *b, uint32_t at,
                                        int depth) {
    for (uint32_t i = 0; depth < 16 && i < b->count; i++) {
        const DlStmt *t = b->items[i];
        if (t->span.end > at) {
            /* the load's statement: in a script, the `if __name__ == "__main__":` block that
             * holds it is read on in the same way */
            if (t->kind != DL_ST_IF || t->span.start > at) return false;
            const DlBlock *body = &t->parts->body;
            bool holds = body->count && body->items[0]->span.start <= at &&
                         at <= body->items[body->count - 1]->span.end;
            return holds && gpu_required_first_in_block(ctx, body, at, depth + 1);
        }
        if ((t->kind == DL_ST_EXPR || t->kind == DL_ST_ASSIGN) &&
            moves_to_a_cuda_variable(ctx, t->value))
            return true;
    }
    return false;
}

static bool gpu_required_first_in_scope(DlRuleContext *ctx, const DlCallFact *fact) {
    const DlFunction *fn = fact->place->function;
    const DlBlock *b = fn ? &fn->body : &rule_module(ctx)->body;
    return gpu_required_first_in_block(ctx, b, fact->call->span.start, 0);
}

/* After the load, on every path that goes on, its function (or script) does what fails
 * without a GPU (gpu_after): ActionCLIP's `model = model.cuda()` after `if
 * os.path.isfile(p): state = torch.load(p)`, CLIMS' `model =
 * torch.nn.DataParallel(model).cuda()`, SLIP's `model.cuda(args.gpu)`, isic2019's
 * `modelVars['model'].cuda()` later in the loop's body. The code runs only with a GPU, as after
 * a `.cuda()` before the load; a map_location would change nothing. */
static bool gpu_required_after(DlRuleContext *ctx, const DlCallFact *fact) {
    const DlFunction *fn = fact->place->function;
    const DlBlock *body = fn ? &fn->body : &rule_module(ctx)->body;
    return gpu_after(ctx, body, fact->call->span.start, 0) == 1;
}

/* The top-level def of the file named `name`, if it is `target` or may call it. */
static const DlFunction *top_level_function_towards(const DlModuleIR *m, const char *name,
                                                    const DlFunction *target, int depth) {
    for (uint32_t i = 0; i < m->function_count; i++) {
        const DlFunction *g = m->functions[i];
        if (g->owner || g->parent || strcmp(g->name, name) != 0) continue;
        if (g == target || block_reaches(m, &g->body, target, depth)) return g;
    }
    return NULL;
}

/* The top-level function of the file that the call `e` (itself, not its arguments) makes and
 * that is `target` or may call it; NULL otherwise. */
static const DlFunction *function_called_towards(const DlModuleIR *m, const DlExpr *e,
                                                 const DlFunction *target, int depth) {
    if (!e || e->kind != DL_EX_CALL || !e->object) return NULL;
    /* `sess.load_checkpoints(path)`: a method of the file's class is reached by its name */
    if (target->owner && e->object->kind == DL_EX_ATTR && e->object->name &&
        strcmp(e->object->name, target->name) == 0)
        return target;
    /* `mp.spawn(main, args=(world_size,), nprocs=world_size)`: each worker runs `main` */
    const DlExpr *worker = e->object->kind == DL_EX_ATTR && e->object->name &&
                                   strcmp(e->object->name, "spawn") == 0
                               ? dl_ir_positional(e, 0)
                               : NULL;
    if (worker && worker->kind == DL_EX_NAME)
        return top_level_function_towards(m, worker->name, target, depth);
    if (e->object->kind != DL_EX_NAME) return NULL;
    /* a def nested in the function walked, called by its name there */
    if (target->parent && strcmp(e->object->name, target->name) == 0) return target;
    /* `Session()`: its __init__ runs */
    for (uint32_t i = 0; target->owner && i < m->function_count; i++) {
        const DlFunction *g = m->functions[i];
        if (!g->owner || strcmp(g->name, "__init__") != 0 ||
            strcmp(g->owner->name, e->object->name) != 0)
            continue;
        if (g == target || block_reaches(m, &g->body, target, depth)) return g;
    }
    return top_level_function_towards(m, e->object->name, target, depth);
}

/* Does `e` call a function of the module (a top-level def, `main()`, `setup(path)`) that is
 * `target` or may call it, directly or through others of the file? */
static bool calls_towards(const DlModuleIR *m, const DlExpr *e, const DlFunction *target,
                          int depth) {
    if (!e || depth > 16) return false;
    if (function_called_towards(m, e, target, depth + 1)) return true;
    if (calls_towards(m, e->object, target, depth + 1)) return true;
    for (uint32_t i = 0; i < e->item_count; i++)
        if (calls_towards(m, e->items[i], target, depth + 1)) return true;
    for (uint32_t i = 0; i < e->arg_count; i++)
        if (calls_towards(m, e->args[i].value, target, depth + 1)) return true;
    return false;
}

static bool statement_reaches(const DlModuleIR *m, const DlStmt *s, const DlFunction *target,
                              int depth) {
    if (depth > 16 || calls_towards(m, s->value, target, depth)) return true;
    for (uint32_t w = 0; s->kind == DL_ST_WITH && w < s->with_count; w++)
        if (calls_towards(m, s->withs[w], target, depth)) return true;
    if (s->kind == DL_ST_DEF || s->kind == DL_ST_CLASS) return false;
    const DlBlock *inner;
    for (uint32_t k = 0; (inner = dl_stmt_block(s, k)); k++)
        if (block_reaches(m, inner, target, depth + 1)) return true;
    return false;
}

static bool block_reaches(const DlModuleIR *m, const DlBlock *b, const DlFunction *target,
                          int depth) {
    for (uint32_t n = 0; depth <= 16 && n < b->count; n++)
        if (statement_reaches(m, b->items[n], target, depth)) return true;
    return false;
}

/* Over the top-level statements of `b`, the first that calls something of the file that leads
 * to `target`: 1 when what fails without a GPU (`torch.cuda.set_device(GPU_iden)`,
 * `model.cuda()`) came before it (or `required` says it came before `b`), -1 when not, 0 when
 * none leads there; the block of `if __name__ == "__main__":` is followed in turn. */
static int gpu_required_before(DlRuleContext *ctx, const DlModuleIR *m, const DlBlock *b,
                               const DlFunction *target, bool required, int depth) {
    for (uint32_t j = 0; depth < 4 && j < b->count; j++) {
        const DlStmt *t = b->items[j];
        if (is_main_guard(ctx, t)) {
            int inside = gpu_required_before(ctx, m, &t->parts->body, target, required,
                                             depth + 1);
            if (inside) return inside;
            continue;
        }
        if (!statement_reaches(m, t, target, 0)) {
            if (!required && (t->kind == DL_ST_EXPR || t->kind == DL_ST_ASSIGN) &&
                needs_a_gpu(ctx, t->value))
                required = true;
            continue;
        }
        /* a worker spawned (`mp.spawn(eval_worker, ...)`) is judged by what it does itself,
         * not by an earlier spawn of workers that need a GPU */
        bool spawns = (t->kind == DL_ST_EXPR || t->kind == DL_ST_ASSIGN) && t->value &&
                      t->value->kind == DL_EX_CALL && t->value->object &&
                      t->value->object->kind == DL_EX_ATTR && t->value->object->name &&
                      strcmp(t->value->object->name, "spawn") == 0;
        if (required && !spawns) return 1;
        /* `main()`, which itself calls what fails without a GPU before what leads to the
         * load (plug-and-play's PCA scripts: `model = load_model_from_config(...)`, then the
         * feature maps' loads) */
        const DlFunction *g = t->kind == DL_ST_EXPR || t->kind == DL_ST_ASSIGN
                                  ? function_called_towards(m, t->value, target, 1)
                                  : NULL;
        if (g && g != target && gpu_required_before(ctx, m, &g->body, target, false, depth + 1) > 0)
            return 1;
        return -1;
    }
    return 0;
}

/* A script (or a notebook) that no other file may import, whose top level or `if __name__ ==
 * "__main__":` block, before it calls anything of the file that leads to the load's function
 * (or a method of a class the file defines, reached by its name: RESCAN's
 * `Session.load_checkpoints`), does what fails without a GPU, at its top level: the function
 * runs only with a GPU (TransMorph's inference scripts, FourCastNet's;
 * stagewise-knowledge-distillation's notebook, whose first cell calls
 * `torch.cuda.set_device(1)`). */
static bool top_level_class(const DlModuleIR *m, const DlClass *cls) {
    for (uint32_t i = 0; i < m->body.count; i++)
        if (m->body.items[i]->kind == DL_ST_CLASS && m->body.items[i]->parts->cls == cls)
            return true;
    return false;
}

static bool script_requires_a_gpu_first(DlRuleContext *ctx, const DlCallFact *fact) {
    const DlModuleIR *m = rule_module(ctx);
    const DlFunction *fn = fact->place->function;
    /* a top-level def, whose calls the walk below can follow by name; a notebook's, which no
     * module can import, whatever names its sibling notebooks share with it */
    bool notebook = dl_source_is_notebook(dl_rule_source(ctx));
    /* a def nested in a function, which only that function calls: after `model =
     * model.cuda()` there (Bengaliai's `training()` and its `load` helper) */
    if (m && fn && fn->parent && !fn->owner &&
        gpu_required_before(ctx, m, &fn->parent->body, fn, false, 0) > 0)
        return true;
    if (!m || !(m->imported_by_no_other_file || notebook) || !fn || fn->parent ||
        (fn->owner && !top_level_class(m, fn->owner)))
        return false;
    return gpu_required_before(ctx, m, &m->body, fn, false, 0) > 0;
}

/* `torch.load(path).numpy()`: what the file holds is read as a NumPy array at once, which works
 * for CPU tensors only; one saved from a GPU fails there on every machine, so the file holds
 * CPU tensors (LSTM-AutoEncoder's feature files, loaded in a notebook). */
static bool read_as_numpy_at_once(DlRuleContext *ctx, const DlCallFact *fact) {
    const DlSource *src = rule_module(ctx)->source;
    if (!src || !src->text || fact->call->span.end > src->len) return false;
    const char *after = src->text + fact->call->span.end;
    const char *end = src->text + src->len;
    /* past calls that keep the device (`torch.load(p).float().numpy()`: CausalVTG's features) */
    static const char *const keeping[] = {"detach", "float",   "double",     "half",  "long",
                                          "int",    "bool",    "squeeze",    "clone", "contiguous",
                                          "flatten", "reshape", "view",       "t",     NULL};
    for (int hops = 0; hops < 8; hops++) {
        if (end - after >= 8 && strncmp(after, ".numpy()", 8) == 0) return true;
        if (after >= end || *after != '.') return false;
        const char *name = after + 1, *p = name;
        while (p < end && (isalnum((unsigned char)*p) || *p == '_')) p++;
        if (p >= end || *p != '(') return false;
        bool kept = false;
        for (const char *const *k = keeping; *k && !kept; k++)
            kept = strlen(*k) == (size_t)(p - name) && strncmp(name, *k, (size_t)(p - name)) == 0;
        if (!kept) return false;
        int depth = 0;
        for (; p < end; p++) {
            if (*p == '(') depth++;
            else if (*p == ')' && --depth == 0) break;
        }
        if (p >= end) return false;
        after = p + 1;
    }
    return false;
}

/* The statement of `b` (or of a block in it) that binds `call`'s value by assignment (`logs =
 * torch.load(path)`, `data, y = torch.load(path)`), or NULL. */
static const DlStmt *statement_binding(const DlBlock *b, const DlExpr *call, int depth) {
    for (uint32_t i = 0; b && depth < 16 && i < b->count; i++) {
        const DlStmt *s = b->items[i];
        if (s->span.start > call->span.start || s->span.end < call->span.end) continue;
        if (s->kind == DL_ST_ASSIGN && s->value == call && s->target_count == 1) return s;
        if (s->kind == DL_ST_DEF || s->kind == DL_ST_CLASS) return NULL;
        const DlBlock *inner;
        for (uint32_t k = 0; (inner = dl_stmt_block(s, k)); k++) {
            const DlStmt *found = statement_binding(inner, call, depth + 1);
            if (found) return found;
        }
    }
    return NULL;
}

static int reads_as_numpy(const char *from, const char *end, const char *name, bool a_local,
                          int depth);

/* The local an entry at `entry` (its text ending at `entry_end`) is bound to by the line that
 * holds it, `img1, y1 = self.data[index], self.y[index]`: the target at the entry's place among
 * the line's values, copied into `out`; false when the line is not such an assignment. */
static bool local_bound_to_entry(const char *from, const char *entry, const char *entry_end,
                                 char *out, size_t cap) {
    const char *line = entry;
    while (line > from && line[-1] != '\n') line--;
    const char *eol = strchr(entry_end, '\n');
    const char *eq = memchr(line, '=', (size_t)(entry - line));
    if (!eq || !eol || eq[1] == '=' || (eq > line && strchr("!<>=", eq[-1]))) return false;
    /* the entry's place among the values: top-level commas between `=` and it */
    int place = 0, depth = 0;
    for (const char *c = eq + 1; c < entry; c++) {
        if (*c == '(' || *c == '[' || *c == '{') depth++;
        else if (*c == ')' || *c == ']' || *c == '}') depth--;
        else if (*c == ',' && depth == 0) place++;
    }
    const char *after = entry_end;
    while (after < eol && (*after == ' ' || *after == '\t')) after++;
    if (depth != 0 || (after < eol && *after != ',' && *after != '#')) return false;
    /* the target at that place: plain names separated by commas */
    const char *t = line;
    while (t < eq && (*t == ' ' || *t == '\t')) t++;
    for (int k = 0; k < place && t < eq; t++)
        if (*t == ',') {
            k++;
            while (t + 1 < eq && t[1] == ' ') t++;
        }
    const char *t_end = t;
    while (t_end < eq && dl_source_name_byte(*t_end)) t_end++;
    if (t_end == t || (size_t)(t_end - t) >= cap) return false;
    memcpy(out, t, (size_t)(t_end - t));
    out[t_end - t] = '\0';
    return true;
}

/* reads_entries_as_numpy's walk; `a_local`: `name` is a local bound to an entry already, which
 * `np.array(name)` reads whole. */
static int reads_as_numpy(const char *from, const char *end, const char *name, bool a_local,
                          int depth) {
    size_t n = strlen(name);
    int seen = 0;
    for (const char *p = from; p + n < end;) {
        const char *hit = memmem(p, (size_t)(end - p), name, n);
        if (!hit) break;
        p = hit + n;
        if (isalnum((unsigned char)hit[-1]) || hit[-1] == '_' || hit[-1] == '.' ||
            dl_source_name_byte(hit[n]))
            continue;
        seen = seen ? seen : 1;
        bool wrapped = (hit - from >= 9 && memcmp(hit - 9, "np.array(", 9) == 0) ||
                       (hit - from >= 11 && memcmp(hit - 11, "np.asarray(", 11) == 0);
        const char *q = hit + n;
        bool entry = false;
        while (*q == '[') { /* `logs["winners"]`, `logs[k][0]`: entries, one bracket deep */
            const char *close = memchr(q, ']', (size_t)(end - q));
            if (!close || memchr(q + 1, '[', (size_t)(close - q - 1))) break;
            q = close + 1;
            entry = true;
        }
        if (strncmp(q, ".detach()", 9) == 0) q += 9;
        if (strncmp(q, ".numpy()", 8) == 0 || (wrapped && (entry || a_local) && *q == ')'))
            return 2;
        /* bound to a local first, which is read so: `img1, y1 = self.data[index], self.y[index]`
         * then `np.array(img1)` (PDAtt-Unet's test datasets) */
        char local[64];
        if (entry && !a_local && depth < 2 &&
            local_bound_to_entry(from, hit, q, local, sizeof local) && strcmp(local, name) != 0 &&
            reads_as_numpy(q, end, local, true, depth + 1) == 2)
            return 2;
    }
    return seen;
}

/* How the text [from, end) reads `name` (`logs`, `self.data`) as a whole word: not at all (0),
 * only otherwise (1), or an entry of it as a NumPy array at least once (2): `logs["w"].numpy()`,
 * `np.array(self.data[index])`, which work for CPU tensors only. */
static int reads_entries_as_numpy(const char *from, const char *end, const char *name) {
    return reads_as_numpy(from, end, name, false, 0);
}

/* `logs = torch.load(path)`, then `logs["winners"].numpy()` in the same scope: an entry of what
 * the file holds read as a NumPy array, which works for CPU tensors only (dummy-snn's logs).
 * Unpacked into names or attributes of self (`self.data, self.y = torch.load(path)`, then
 * `np.array(self.data[index])` in `__getitem__`: PDAtt-Unet's datasets), each part read again
 * is read so, the attributes anywhere in the class. */
static bool entry_read_as_numpy(DlRuleContext *ctx, const DlCallFact *fact, const DlBlock *scope,
                                DlSpan scope_span) {
    const DlSource *src = rule_module(ctx)->source;
    const DlStmt *s = src && src->text ? statement_binding(scope, fact->call, 0) : NULL;
    if (!s || scope_span.end > src->len) return false;
    const DlExpr *t = s->targets[0];
    const DlExpr *const *parts = (const DlExpr *const *)&s->targets[0];
    uint32_t count = 1;
    if (t->kind == DL_EX_TUPLE || t->kind == DL_EX_LIST) {
        parts = (const DlExpr *const *)t->items;
        count = t->item_count;
    }
    const DlFunction *fn = fact->place->function;
    int numpy = 0;
    for (uint32_t i = 0; i < count; i++) {
        const DlExpr *part = parts[i];
        int read;
        if (part->kind == DL_EX_NAME) { /* after the load, in its scope */
            read = reads_entries_as_numpy(src->text + fact->call->span.end,
                                          src->text + scope_span.end, part->name);
        } else if (dl_ir_is_self_attr(part, NULL) && fn && fn->owner &&
                   fn->owner->span.end <= src->len) { /* the class, around the statement */
            const char *name = dl_arena_join(dl_rule_arena(ctx), "self", '.', part->name);
            DlSpan cls = fn->owner->span;
            int before = reads_entries_as_numpy(src->text + cls.start, src->text + s->span.start,
                                                name);
            int after = reads_entries_as_numpy(src->text + s->span.end, src->text + cls.end, name);
            read = before > after ? before : after;
        } else {
            return false;
        }
        if (read == 1) return false;
        numpy += read == 2;
    }
    return numpy > 0;
}

static void check_load(DlRuleContext *ctx, const DlCallFact *fact);

static void on_call(DlRuleContext *ctx, const DlCallFact *fact) {
    if (!fact->qualified || strcmp(fact->qualified, "torch.load") != 0) return;
    judged_file = dl_project_file(dl_rule_project(ctx), rule_module(ctx));
    /* a load in a method __init__ runs (`self.load_data()`, inlined into __init__'s run): read
     * in the method's own scope, where its cache test is (Spiking-RepVGG's trainer) */
    const DlFunction *fn = fact->place->function;
    if (fn && !(fn->span.start <= fact->call->span.start &&
                fact->call->span.end <= fn->span.end)) {
        const DlFunction *own =
            function_around(&rule_module(ctx)->body, fact->call->span.start, NULL, 0);
        if (own) {
            DlPlace place = *fact->place;
            place.function = own;
            DlCallFact inner = *fact;
            inner.place = &place;
            check_load(ctx, &inner);
            return;
        }
    }
    check_load(ctx, fact);
}

/* `e` moves the result of `load` to CUDA: `torch.load(p).cuda()`, `.to("cuda")`, also down a
 * chain (`torch.load(p).float().cuda()`). */
typedef struct LoadMoved {
    DlRuleContext *ctx;
    const DlExpr *load;
} LoadMoved;

static bool moves_the_load_to_cuda(const DlExpr *e, void *arg) {
    const LoadMoved *m = arg;
    if (e->kind != DL_EX_CALL ||
        !(dl_ir_moves_to_cuda(e) || moves_to_a_cuda_variable(m->ctx, e)))
        return false;
    for (const DlExpr *r = e->object && e->object->kind == DL_EX_ATTR ? e->object->object : NULL;
         r && r->kind == DL_EX_CALL; r = r->object && r->object->kind == DL_EX_ATTR ? r->object->object : NULL)
        if (r == m->load) return true;
    return false;
}

/* The statement around the load moves what it loaded to CUDA at once
 * (`input_constant = torch.load('Earth.pt').cuda()`, CanglongPhysics' models; or
 * `.to(device)` of a name last bound to CUDA, `device = 'cuda'`): that statement fails without a
 * GPU whatever `map_location` says. */
static bool statement_moves_it_to_cuda(const DlStmt *s, const DlExpr *load, void *arg) {
    LoadMoved m = {arg, load};
    return (s->kind == DL_ST_EXPR || s->kind == DL_ST_ASSIGN || s->kind == DL_ST_RETURN) &&
           s->value && dl_ir_expr_any_with(s->value, moves_the_load_to_cuda, &m);
}

/* The file name a path literal ends with (core/file_name.h), or NULL. */
static const char *file_name_of(DlRuleContext *ctx, const char *literal) {
    size_t start = 0, len = dl_file_name_ending(literal, strlen(literal), &start);
    return len ? dl_arena_printf(dl_rule_arena(ctx), "%.*s", (int)len, literal + start) : NULL;
}

/* `torch.save(obj, path)` of something made on the CPU (made_on_the_cpu), `path` ending with
 * the file name `want`: in the other file being read (written_from_the_cpu_by_another_file). */
static bool saved_from_the_cpu_named(DlRuleContext *ctx, const DlExpr *obj, const DlExpr *path,
                                     const DlBlock *b, uint32_t i, const char *want) {
    const DlExpr *lit = last_literal_in(ctx, path, b, b->items[i]->span.start, 0);
    const char *name = lit && lit->name ? file_name_of(ctx, lit->name) : NULL;
    return name && strcmp(name, want) == 0 && made_on_the_cpu(ctx, obj, b, i, 0);
}

/* Another file of the project writes the file the load reads, from the CPU: `torch.save(
 * torch.from_numpy(x), datasets_folder + "train_x.pty")` in generate_data.py, then
 * `torch.load(datasets_folder + "train_x.pty")` in a training script (Signature-Kernel-
 * Forecast's). Matched by the file name the two paths' last literals end with; such a saving
 * file is built with the project for this (driver/sharing_saves.c), and the files read are
 * noted as lookups' are. */
static bool written_from_the_cpu_by_another_file(DlRuleContext *ctx, const DlCallFact *fact) {
    const DlExpr *path = dl_ir_positional(fact->call, 0);
    const DlFunction *fn = fact->place->function;
    const DlExpr *lit = path ? last_literal_in(ctx, path, fn ? &fn->body : &rule_module(ctx)->body,
                                               fact->call->span.start, 0)
                             : NULL;
    const char *want = lit && lit->name ? file_name_of(ctx, lit->name) : NULL;
    if (!want) return false;
    const DlProject *p = dl_rule_project(ctx);
    const DlModuleIR *here = rule_module(ctx);
    const DlFileFacts *judged = judged_file;
    bool found = false;
    for (uint32_t i = 0; p && i < p->file_count && !found; i++) {
        const DlModuleIR *m = p->files[i].module;
        if (!m || m == here || m->language != DL_LANG_PYTHON || !m->source ||
            !dl_source_mentions(m->source, want))
            continue;
        dl_project_note_file_read(p, &p->files[i]);
        other_file = m;
        judged_file = &p->files[i];
        found = any_save(ctx, &m->body, saved_from_the_cpu_named, want, 0);
        other_file = NULL;
        judged_file = judged;
    }
    if (!found && p) dl_project_note_search_missed(p);
    return found;
}

static void check_load(DlRuleContext *ctx, const DlCallFact *fact) {
    extern const DlRule dl_rule_DL109;
    if (dl_ir_map_location(fact->call)) return;
    /* `torch.load()` with no file (a notebook cell left unfinished): a TypeError before any
     * device matters, which a `map_location` does not mend */
    if (fact->call->arg_count == 0) return;
    /* `torch.load(path, **load_kwargs)`: the dict may hold map_location (torchrl adds it when
     * its caller passes one) */
    if (dl_ir_keyword(fact->call, "**")) return;
    if (read_as_numpy_at_once(ctx, fact)) return;
    /* a TensorRT engine's weights (`model_trt = TRTModule(); model_trt.load_state_dict(
     * torch.load(trt_file))`, YOLOX's demo and its copies): TensorRT runs only on a GPU */
    if (dl_rule_scope_mentions(ctx, fact->place, "TRTModule(")) return;
    const DlFunction *fn = fact->place->function;
    const DlBlock *scope = fn ? &fn->body : &rule_module(ctx)->body;
    DlSpan scope_span = fn ? fn->span : (DlSpan){0, (uint32_t)rule_module(ctx)->source->len};
    if (entry_read_as_numpy(ctx, fact, scope, scope_span)) return;
    if (handler_of_a_try_around(ctx, scope, fact->call, handler_loads_with_a_map_location, NULL) ||
        statement_around(scope, fact->call, other_arm_loads_onto_the_host, NULL, 0) ||
        statement_around(scope, fact->call, statement_moves_it_to_cuda, ctx, 0))
        return;
    if (!device_aware(ctx, fact->place) || reads_memory(ctx, fact) ||
        written_by_this_run(ctx, fact) || written_from_the_cpu_here(ctx, fact) ||
        saved_by_its_class_after_a_cpu_move(ctx, fact) ||
        holds_no_tensors(ctx, fact) || reads_its_own_cache(ctx, fact) ||
        class_writes_it_itself(ctx, fact) ||
        script_requires_a_gpu_first(ctx, fact) ||
        defined_after_a_gpu_is_required(ctx, fact->place->function) ||
        gpu_required_first_in_scope(ctx, fact) || gpu_required_after(ctx, fact) ||
        written_from_the_cpu_by_another_file(ctx, fact))
        return;
    DlArena *arena = dl_rule_arena(ctx);
    const char *target = fact->device_in_scope ? fact->device_in_scope : "\"cpu\"";
    const char *message = dl_arena_printf(
        arena,
        "`torch.load` without `map_location` restores tensors on the device they were saved "
        "from, which fails on a machine without that GPU; pass `map_location=%s`",
        target);
    dl_report_finding(ctx, &dl_rule_DL109, fact->call->span, fact->call->span, message,
                      dl_fix_add_keyword(ctx, fact->call, "map_location", target));
}

const DlRule dl_rule_DL109 = {
    .code = "DL109",
    .name = "load-without-map-location",
    .severity = DL_SEV_ERROR,
    .fixable = true,
    .default_enabled = true,
    .summary = "`torch.load` without `map_location` in code that must also run without a GPU",
    .doc = doc,
    .on_call = on_call,
};
