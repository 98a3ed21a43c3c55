/* DL203 timing-without-synchronize: wall-clock time read after device work that was never
 * waited for. */
#include "rules/facts.h"

static const char doc[] =
    "## What it does\n"
    "Finds an interval measured with wall-clock reads (`time.time()`, `time.perf_counter()`,\n"
    "`time.monotonic()`, `timeit.default_timer()`): `end - start` where device work (a model on\n"
    "the GPU, a tensor moved there) was queued after `start` and not waited for\n"
    "(`torch.cuda.synchronize()`, or a host read such as `.item()`) before `end` was read. The\n"
    "finding is on the later clock read.\n\n"
    "## Why is this bad?\n"
    "CUDA kernels run asynchronously: the clock measures how long Python took to queue them, not\n"
    "how long the GPU took to run them. Benchmarks come out absurdly fast, or the time shows up\n"
    "in the next synchronising call.\n\n"
    "## Example\n"
    "```python\n"
    "start = time.perf_counter()\n"
    "out = model(x)\n"
    "elapsed = time.perf_counter() - start\n"
    "```\n\n"
    "## Use instead\n"
    "```python\n"
    "start = time.perf_counter()\n"
    "out = model(x)\n"
    "torch.cuda.synchronize()\n"
    "elapsed = time.perf_counter() - start\n"
    "# or CUDA events: start_evt.record(); ...; end_evt.record(); torch.cuda.synchronize()\n"
    "```\n\n"
    "## When it does not fire\n"
    "- `torch.cuda.synchronize()` (or `torch.mps.synchronize()`, `torch.xpu.synchronize()`,\n"
    "  `torch.accelerator.synchronize()`; under `if device.type == \"mps\":` only in a file\n"
    "  that names no CUDA, whose device is Apple's GPU or the CPU), an event's `synchronize()`/`elapsed_time()`, or a\n"
    "  host read\n"
    "  (`.item()`, `.cpu()`, a tensor or module moved to the CPU with `.to(\"cpu\")`) happens\n"
    "  before the clock is read, or a blocking copy from the host (`model.to(device)`,\n"
    "  `x.cuda()` without `non_blocking=True`, or with it from pageable memory, which DL202\n"
    "  reports as synchronous: PyTorch synchronizes the stream after it; of a tensor whose\n"
    "  device is not known, such a copy counts as no work);\n"
    "  or an operation whose output is sized by the data (`torch.nonzero`, `torch.unique`,\n"
    "  `masked_select`, `torch.where(cond)` of one argument, `torch.repeat_interleave(x,\n"
    "  counts)` by a tensor of counts without `output_size=`), which the host waits for; or\n"
    "  `torch.save(model, path)` of a model (or tensors, or `model.state_dict()`) on the\n"
    "  device, which copies them to the host; or an LR scheduler's `step(metrics=loss)`, which\n"
    "  queues nothing, and whose\n"
    "  `ReduceLROnPlateau` reads the metric with `float()`; or a method named for logging or\n"
    "  showing what it is given (`tb_logger.log_images(tag, x)`, `vis.plot(y)`) of an object\n"
    "  of no known kind, which copies it to the host to record it;\n"
    "  also a loop whose every iteration waits so (`error.item()` in each round), taken to run\n"
    "  at least once: what is left pending is what its body queued after the wait;\n"
    "- the clock is read where CUDA is not used: in the `else` of a check whose body\n"
    "  synchronizes (`if use_cuda: ...; torch.cuda.synchronize() else: time.time()`);\n"
    "- the last call before the clock is a project function or a method of a project class\n"
    "  that returns no tensor on a device (`agent.update(rollouts)` returning its losses as\n"
    "  numbers): it may wait for the device inside; or one that waits for the device before\n"
    "  every return (a decoder's `inference` that checks its output with `.item()`; only the\n"
    "  return's own elementwise arithmetic after the wait, `return loss / len(loader)`, is a few\n"
    "  elements' kernel and counts as waited), or that\n"
    "  hands back a blocking copy (`return torch.stack(imgs).cuda()`); or a\n"
    "  tensor appended to a list (`outputs.append(out)`), which queues nothing; or a diffusers\n"
    "  pipeline, which returns its\n"
    "  images copied off the device (`pipe(prompt).images[0]`); or the `generate()` of a model\n"
    "  whose class the project does not define (Hugging Face's decoding loop asks the host after\n"
    "  every token whether to stop, so the work is done when it returns), or a Lightning\n"
    "  Trainer's `trainer.fit(...)` (its loops read metrics back every epoch);\n"
    "- the timed work is CPU-only, or its device is unknown, or queues nothing (metadata such\n"
    "  as `x.size()` or `model.parameters()`, hooks registered with `register_*`, `zero_grad()`\n"
    "  which sets the gradients to None unless given `set_to_none=False`, a module's\n"
    "  `load_state_dict(...)`, which only copies weights (blocking from the host, a memory copy\n"
    "  on the device: the best weights restored after a timed training), a wrapper such as\n"
    "  `Variable(x)` or `nn.Parameter(x)`, work on the meta device such as a model built under\n"
    "  `torch.device(\"meta\")` loading a state dict with `assign=True`);\n"
    "- all that is pending when the clock is read is a little arithmetic in the statement that\n"
    "  reads it, queued after the device was waited for (`print(..., loss_sum / n,\n"
    "  time.time() - start)` after an evaluation that read its accuracy; an elementwise call\n"
    "  counts as arithmetic: `torch.round(score * 1000) / 1000`);\n"
    "- the elapsed time is only compared with a limit (`if time.time() - start > max_time:`):\n"
    "  a time budget, not a measurement.\n";

static void on_timing(DlRuleContext *ctx, const DlTimingFact *fact) {
    extern const DlRule dl_rule_DL203;
    const char *message = dl_arena_printf(
        dl_rule_arena(ctx),
        "`%s` reads the clock while device work queued at %s (`%s`) may still be running: "
        "CUDA calls return before the GPU finishes, so `%s` measures the queueing; call "
        "`torch.cuda.synchronize()` before reading the clock",
        dl_rule_snippet(ctx, fact->end_read), dl_rule_where(ctx, NULL, fact->work.start),
        dl_rule_snippet(ctx, fact->work), dl_rule_snippet(ctx, fact->site->span));
    dl_report_finding(ctx, &dl_rule_DL203, fact->end_read, fact->end_read, message, NULL);
}

const DlRule dl_rule_DL203 = {
    .code = "DL203",
    .name = "timing-without-synchronize",
    .severity = DL_SEV_WARNING,
    .fixable = false,
    .default_enabled = true,
    .summary = "Wall-clock timing around device work without `torch.cuda.synchronize()`",
    .doc = doc,
    .on_timing = on_timing,
};
