/* DL201 host-sync-in-loop: reading a device value on the host in every iteration of a
 * training or evaluation loop. */
#include <string.h>

#include "rules/facts.h"

static const char doc[] =
    "## What it does\n"
    "Finds `.item()`, `.cpu()` (also `.type(torch.FloatTensor)` and `.to(cpu_device)`, copies to\n"
    "the host), `.tolist()`, `print(t)` (also `print((step, t))`), `float(t)`, `int(t)`,\n"
    "`bool(t)`, TensorBoard's\n"
    "`writer.add_scalar(tag, t, step)` (which reads `t` with `.item()`) and\n"
    "`if t:` on a tensor that is on a device, in every iteration of a loop over a data loader\n"
    "(`enumerate(loader)`, `tqdm(loader)` included) or of a `while` loop driven by a step "
    "counter.\n"
    "Also a call there of a project function or method that reads a device value back with\n"
    "`.item()`, `.tolist()` or `.cpu()` on every call (a trainer's `train_step` ending with\n"
    "`self.total += loss.item()`), or one that so copies a parameter to the host (a meter's\n"
    "`update(y_true, y_pred)` doing `y_pred.cpu()`, a logger's `log(Y_hat, Y)` doing `int(Y)`)\n"
    "given a device tensor there, reported at the call. A `.cpu()`, `.item()` or `.tolist()`\n"
    "of a value whose device is not known (a parameter model's output), or a call of a project\n"
    "function that so reads back such a value it is given (`cal_correct(output, target)`), is\n"
    "reported as the wait when a read of a device value follows it with no work queued between:\n"
    "that read waits for nothing, so the first read did. A loss function handed in as a\n"
    "parameter (`criterion`, `loss_fn`, `loss_func`, `loss_function`), or kept as an attribute\n"
    "so named (`self.criterion`), gives a loss where its tensor arguments are.\n\n"
    "## Why is this bad?\n"
    "CUDA work is asynchronous: Python queues kernels and moves on. Reading a value back makes "
    "the\n"
    "host wait until the GPU has finished everything queued, every step, so the CPU can no longer\n"
    "prepare the next batch while the GPU computes. A few syncs per epoch are free; one per step\n"
    "can cost a large part of the throughput.\n\n"
    "## Example\n"
    "```python\n"
    "for step, (x, y) in enumerate(loader):\n"
    "    loss = criterion(model(x.to(device)), y.to(device))\n"
    "    running += loss.item()\n"
    "```\n\n"
    "## Use instead\n"
    "```python\n"
    "running = torch.zeros((), device=device)\n"
    "for step, (x, y) in enumerate(loader):\n"
    "    loss = criterion(model(x.to(device)), y.to(device))\n"
    "    running += loss.detach()\n"
    "    if step % 100 == 0:\n"
    "        print(running.item() / (step + 1))\n"
    "```\n\n"
    "## When it does not fire\n"
    "- the copy does not wait: `out.to(\"cpu\", non_blocking=True)` copies into pinned memory\n"
    "  and returns at once (read its values only after a `torch.cuda.synchronize()`);\n"
    "- under a periodic guard (`if step % N == 0:`, `if i == 0:`, or a flag the loop computes\n"
    "  from the step: `show = it % N == 0` then `if show:`, or a recorder tested against None,\n"
    "  `if writer is not None:` (a logger, a callback), or by its truth where the function\n"
    "  leaves it None unless an option makes one (`if wandb_logger:`); not a comparison of\n"
    "  the function's options, `if args.model in [\"crf\", \"lstm-crf\"]:` or `if criterion is\n"
    "  not None:`, the same in every iteration), in the else of\n"
    "  `if step % N != 0:` or of `if random.random() > rate:` (a sample), in an inner `while\n"
    "  count < N:` whose counter is set before the batch loop and only counted up in it (the\n"
    "  first iterations only), or after a filter that lets one\n"
    "  item through (`if name[0] != \"img_0022\": continue`, `if idx != 7: continue`: an id\n"
    "  written out, not a kind such as `\"freeform\"`) or every N-th (`if step % N != 0:\n"
    "  continue`, `if not should_evaluate: continue`), or once per epoch, before or\n"
    "  after the batch loop (an epoch loop that steps only a learning-rate scheduler,\n"
    "  `scheduler.step()` or `schedulers['gen'].step()`, is not a training loop of its own;\n"
    "  nor is a full-batch one, `for epoch in range(n):` or `for t in range(num_epochs):`\n"
    "  (or over `tqdm.trange(n)`) whose body\n"
    "  trains on the whole data and draws no batch: one step\n"
    "  per epoch, nor a search over the same data, `for it in range(max_iter):` (or `while i\n"
    "  <= max_itr:` counting its passes) drawing no batch (nor binding one: `batch =\n"
    "  replay.sample(n)`), that stops early on what a pass computed (`if abs(prev -\n"
    "  loss.item()) < tol: break`, also beside a test of `it`, not on `it` alone): it must\n"
    "  read each pass back to know whether to stop,\n"
    "  nor a loop over a DataLoader whose batch is the whole dataset,\n"
    "  `DataLoader(ds, batch_size=len(ds))`, which runs once (or a few times,\n"
    "  `batch_size=len(ds) // 4`), nor one whose body ends with\n"
    "  `break`, `return` or `raise` and never `continue`s: one test batch every N steps; or\n"
    "  skips with `continue` and trains nothing: a search for the one batch it uses; nor one\n"
    "  that steps no optimizer and stops after a few batches, `if i == 2: break` on the index\n"
    "  of `enumerate` (a `tqdm` around it too), on a counter counted up in it or on the length\n"
    "  of a list it fills (`if\n"
    "  len(collected) >= num_examples: break`): it shows or checks the first few; nor one that\n"
    "  does step an optimizer and stops after a handful written out, `if i >= 2: break`: a dry\n"
    "  run); in\n"
    "  a branch that leaves the loop\n"
    "  or the program (ending with `break`, `return`, `raise`, `sys.exit()`), or one that turns\n"
    "  its own test off (`if flag: ...; flag = 0`), which runs once; in an `except` handler,\n"
    "  which runs when the body fails, or in the branch of a test for a broken value (`if\n"
    "  torch.isnan(loss):`, `if not torch.isfinite(loss).all():`), which runs on a bad batch\n"
    "  only (the test itself waits, and is reported); under `if self.callback:`, a parameter of\n"
    "  `__init__`\n"
    "  defaulting to None that it only stores and that nothing in the file passes (the feature\n"
    "  is off); after an inner loop of optimizer steps in the\n"
    "  iteration (`for _ in range(100): ...; loss.backward()`, one inverse problem fitted per\n"
    "  sample), read once per those steps;\n"
    "- on CPU tensors, or tensors whose device is unknown; a device parameter defaulting to\n"
    "  `\"cpu\"` is the CPU when every call in the project, in any file, leaves it out, hands\n"
    "  it the CPU (also a config module's `DEVICE = torch.device(\"cpu\")`) or hands on a\n"
    "  caller's own CPU default (`cli.py` calling `evaluation.walk_forward(device=\"cpu\")`\n"
    "  calling `training.train_model(device=device)`);\n"
    "- at a call of a function whose read is under a periodic guard, or in a batch loop of its\n"
    "  own (an `evaluate(model, loader)`: reported there, once), or under a test of the\n"
    "  module's mode (`if not self.training:` in forward: it runs in one mode, not on every\n"
    "  call), or under a parameter off by default (`def loss_fn(..., verbose=False)`, `if\n"
    "  verbose:`) that the call leaves off (a call passing `verbose=True` is reported), or\n"
    "  past `if train: return loss` at a call passing `train=True`, or\n"
    "  that rolls out episodes (`a = action.item()`, then `env.step([a])`);\n"
    "- in a loop over the cases a literal lists (`for dtype in [torch.float, torch.half]:`,\n"
    "  a backward() in each; or over a name bound to such a list: `for i in\n"
    "  range(len(epsilon)):`), which checks each case once, or over a few numbers written out\n"
    "  that steps no optimizer nor draws a batch (`for order in range(1, 5):` with a\n"
    "  backward() per order); in a\n"
    "  loop over `range(n)` of a\n"
    "  parameter whose default is 0 that nothing in the file sets (`def correct(self, x,\n"
    "  N=0):`, `for i in range(0, N):`), which runs for no call that leaves it out;\n"
    "- in a test (`test_*`, `_test_*`, a method of a `Test*` class), in a loop that is not\n"
    "  over a data loader: one that runs `backward()` or steps an optimizer checks gradients\n"
    "  or optimizer states case by case, it does not train;\n"
    "- in a loop that steps an environment with the policy's choice (`env.step(action)`), or\n"
    "  rolls out an episode that does (`while not done: ... env.step(a.item())`): the simulator\n"
    "  reads it on the host every step; nor in one that solves a matching on the host each\n"
    "  step (`rows, cols = linear_sum_assignment(cost.cpu())`, a DETR matcher's, also in a\n"
    "  project function the step calls): the cost matrix must reach the solver every step;\n"
    "- after a library model's `generate()` in the same iteration (per-sample decoding, Hugging\n"
    "  Face's): its decoding loop already asks the host after every token; nor at the call of\n"
    "  a project function whose read is in a loop that stops on a test of its own (a greedy\n"
    "  decoder's `if tok.item() == self.eos: break`);\n"
    "- in an inference loop that writes its outputs to files (`save_image(out, path)`,\n"
    "  `cv2.imwrite`, `Image.fromarray(a).save(path)`, `Image(a).save(path)`,\n"
    "  `ToPILImage()(a).save(path)`, any `x.save(path)` (a tensor has none), `sf.write`,\n"
    "  `np.save`, `np.savetxt`, `pickle.dump(preds, f)`, `f_out.write(line)` (or `writelines`,\n"
    "  `json.dump(d, f)`, `print(line, file=f_out)`) to a file the\n"
    "  function opened for writing (`open(path, \"w\")`, or `\"a\"`),\n"
    "  `a.tofile(path)`, a video's frames (`vw.write(frame)` of `vw = cv2.VideoWriter(...)`,\n"
    "  `w.append_data(frame)` of `imageio.get_writer(...)`), `emb[i] = out[i]` into an\n"
    "  `np.memmap` file, h5py's\n"
    "  `group.create_dataset(name, data=a)`, a helper named\n"
    "  for it such as `save_output(...)` or a method of a project object that writes,\n"
    "  `drawer.draw_heatmap(cam, path)`, in the loop or in a loop of its own inside it, in\n"
    "  both arms of an `if` or under a test of the options (`if args.save_dir is not None:`,\n"
    "  a test that always holds, `if i % 1 == 0 or i == last:`,\n"
    "  a switch of the run, `if self.result_fig:`, or `if frame_id > 0:`, every iteration but\n"
    "  the first); or, for the reads in it, in a\n"
    "  branch that does, `if draw_path is not None:`) or\n"
    "  shows them (`plt.show()`, `plt.pause(t)`, `cv2.imshow`, `cv2.waitKey`, an Open3D\n"
    "  window's `vis.run()`, a visdom plot, `vis.scatter(X=out[i].cpu())`,\n"
    "  `input()`; also in a function of the project the loop calls), and trains nothing (a\n"
    "  `backward()` with no optimizer step, Grad-CAM's, trains nothing): each\n"
    "  iteration must read its output back to write or show it, so another read there adds no\n"
    "  wait;\n"
    "- when no device work was queued since the host last waited for the device: an earlier\n"
    "  read of the same iteration (`loss.item()`, then `acc.item()`: one finding, at the read\n"
    "  that waits) or `torch.cuda.synchronize()`, directly, under a test for the GPU (`if\n"
    "  device_type == \"cuda\":`, where the other path queued nothing), or in a project function\n"
    "  that does so before it returns (tutel's `system.record_time()`) (a loop that waits every\n"
    "  step by its own choice, to time it), or a blocking copy from the host (`w =\n"
    "  batch[\"week\"].to(device)`, `torch.tensor(ids, device=device)`), which waits for all\n"
    "  the work queued before it, or an inner loop whose every iteration ends by reading back\n"
    "  what it queued (a decoder's `predictions.append(out.cpu())`); the read only copies finished\n"
    "  values;\n"
    "  a read of a tensor just copied to the device with a blocking copy (`y.to(device).cpu()`)\n"
    "  copies a finished value too, and so does one whose only pending work is the statement's\n"
    "  own elementwise arithmetic after an earlier read in it (`f\"{loss.item()} {w * l1}\"`),\n"
    "  or whose only work since the last wait was queued in a branch taken on few iterations\n"
    "  (`if step % N == 0:` logging an image grid, `if np.isnan(pb).any():` repairing a NaN);\n"
    "- in a loop that calls `torch.cuda.synchronize()` (or an event's `synchronize()`) in\n"
    "  every iteration, directly or under a test for the GPU, or on leaving a project context\n"
    "  manager around its work (a `@contextmanager` that synchronizes after its `yield`, a\n"
    "  class whose `__exit__` does), to time its steps: it waits for\n"
    "  the device every step by its own choice, so a read there, before or after the\n"
    "  synchronize, adds no wait of note;\n"
    "- `.detach()`, arithmetic and accumulation on the device (no sync);\n"
    "- `if \"mask\" in batch:`, `if x is None:`, `if out == None:`, `if preds == []:`:\n"
    "  membership and identity tests, and comparisons with None, a string or an empty\n"
    "  display, give a Python bool without reading the device;\n"
    "- code under `if False:` or `if 0:`, or after an unconditional `exit()` (`sys.exit()`,\n"
    "  `quit()`), which never runs.\n\n"
    "`if torch.isnan(loss) or torch.isinf(loss):` is one finding, at the first operand; so is\n"
    "`if not torch.isnan(loss) and not torch.isinf(loss):`.\n";

/* "`site` waits for the device in every iteration of the loop at line N: `why`; ..." */
static void report_wait_at_site(DlRuleContext *ctx, const DlSyncFact *fact, const char *why) {
    extern const DlRule dl_rule_DL201;
    const char *message = dl_arena_printf(
        dl_rule_arena(ctx),
        "`%s` waits for the device in every iteration of the loop at %s: %s; accumulate on the "
        "device and read it once per epoch or every N steps",
        dl_rule_snippet(ctx, fact->site->span),
        dl_rule_where(ctx, NULL, fact->place->batch_loop->span.start), why);
    dl_report_finding(ctx, &dl_rule_DL201, fact->site->span, fact->site->span, message, NULL);
}

/* `if ...: break` (or `return`) among the statements of `b` itself. */
static bool has_a_stopping_test(const DlBlock *b) {
    for (uint32_t i = 0; i < b->count; i++) {
        const DlStmt *s = b->items[i];
        if (s->kind != DL_ST_IF || !s->parts->body.count) continue;
        DlStmtKind last = s->parts->body.items[s->parts->body.count - 1]->kind;
        if (last == DL_ST_BREAK || last == DL_ST_RETURN) return true;
    }
    return false;
}

/* In `b`: the span `read` is in the body of a loop that stops on a test of its own (`if
 * tok.item() == self.eos: break`, `ids.append(word.item())` then `if ids[-1] == end: break`):
 * a decoding loop, which reads each token to know when to stop. */
static bool stops_on_the_read(const DlBlock *b, DlSpan read, int depth) {
    for (uint32_t i = 0; b && depth < 32 && i < b->count; i++) {
        const DlStmt *s = b->items[i];
        if (s->span.end < read.start || s->span.start > read.end) continue;
        if (s->kind == DL_ST_DEF)
            return s->parts->func && stops_on_the_read(&s->parts->func->body, read, depth + 1);
        if (s->kind == DL_ST_CLASS)
            return s->parts->cls && stops_on_the_read(&s->parts->cls->body, read, depth + 1);
        if ((s->kind == DL_ST_FOR || s->kind == DL_ST_WHILE) &&
            s->parts->body.count && s->parts->body.items[0]->span.start <= read.start &&
            has_a_stopping_test(&s->parts->body))
            return true;
        const DlBlock *inner;
        for (uint32_t k = 0; (inner = dl_stmt_block(s, k)); k++)
            if (stops_on_the_read(inner, read, depth + 1)) return true;
        return false;
    }
    return false;
}

static void on_sync(DlRuleContext *ctx, const DlSyncFact *fact) {
    extern const DlRule dl_rule_DL201;
    if (!fact->place->batch_loop || !fact->place->every_iteration) return;
    if (fact->place->steps_environment) return; /* the action must reach the simulator */
    if (fact->place->solves_on_the_host) return; /* the cost must reach the solver */
    if (fact->place->generated) return; /* per-sample decoding: it waited every token */
    if (fact->place->exports_outputs) return; /* each output is read back to be written */
    if (fact->place->synchronizes_each_step) return; /* it waits every step on purpose */
    /* nothing was queued since the host last waited (an earlier read of this iteration, a
     * `torch.cuda.synchronize()`: BiSeNet's timed loop): the read adds no wait of its own */
    if (fact->nothing_pending) return;
    /* DL108's; not `torch.tensor(losses)`, which reads each item as `.item()` does */
    if (strcmp(fact->how, "numpy") == 0 ||
        (strchr(fact->how, '.') && strcmp(fact->how, "torch.tensor") != 0))
        return;
    DlArena *arena = dl_rule_arena(ctx);
    if (strcmp(fact->how, "call") == 0) {
        /* a project's own decoder that reads each token to stop at the end one (`if
         * tok.item() == self.eos: break`): it must wait every token, as a library's
         * `generate()` does */
        if (fact->callee_home &&
            stops_on_the_read(&fact->callee_home->body, fact->callee_read, 0))
            return;
        report_wait_at_site(
            ctx, fact,
            dl_arena_printf(arena, "it reads `%s` back on the host (%s) on every call",
                            dl_rule_text_in(ctx, fact->callee_home, fact->callee_read),
                            dl_rule_where(ctx, fact->callee_home, fact->callee_read.start)));
        return;
    }
    if (strcmp(fact->how, "first-read") == 0) {
        report_wait_at_site(
            ctx, fact,
            dl_arena_printf(
                arena,
                "it is where the iteration first waits for the work queued on the device, as "
                "a read of a device value after it shows (%s)",
                dl_rule_describe(ctx, dl_rule_snippet(ctx, fact->callee_read), fact->value)));
        return;
    }
    const char *tensor = dl_rule_snippet(ctx, fact->tensor->span);
    const char *what =
        strcmp(fact->how, "if") == 0 ? dl_arena_printf(arena, "testing `%s` as a condition", tensor)
        /* `f"{loss:.4f}"`: the site is the value, so say what is done with it */
        : strcmp(fact->how, "format") == 0
            ? dl_arena_printf(arena, "formatting `%s` into a string", tensor)
            : dl_arena_printf(arena, "`%s`", dl_rule_snippet(ctx, fact->site->span));
    const char *message = dl_arena_printf(
        arena,
        "%s waits for the device in every iteration of the loop at %s (%s); accumulate on "
        "the device and read it once per epoch or every N steps",
        what, dl_rule_where(ctx, NULL, fact->place->batch_loop->span.start),
        dl_rule_describe(ctx, tensor, fact->value));
    dl_report_finding(ctx, &dl_rule_DL201, fact->site->span, fact->site->span, message, NULL);
}

const DlRule dl_rule_DL201 = {
    .code = "DL201",
    .name = "host-sync-in-loop",
    .severity = DL_SEV_WARNING,
    .fixable = false,
    .default_enabled = true,
    .summary = "A device value read on the host (`.item()`, `print`, `if t:`...) in every "
               "iteration of a training loop",
    .doc = doc,
    .on_sync = on_sync,
};
