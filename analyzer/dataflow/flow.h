/* The dataflow engine: abstract interpretation of one function (or a module's top level) over
 * the kind x device lattice, with a fixpoint over loops. In report mode it hands facts to the
 * rules; in summary mode it only computes what the function returns / leaves on self. */
#ifndef DL_FLOW_H
#define DL_FLOW_H
#include "dataflow/project.h"
#include "dataflow/value.h"
#include "rules/facts.h"


typedef struct DlFlowEnv {
    const DlProject *project;
    const DlFileFacts *file;
    DlArena *arena;              /* values created by this run */
    DlRuleContext *report;       /* NULL: summary mode */
    const DlFlowState *globals;  /* the module's top-level state, for names a function reads */
    DlProject *recorder;         /* while summaries are built: where project-wide uses are
                                    noted (datasets and collate functions run in workers) */
    const char *const *device_names; /* configured names that hold devices (`device-names`) */
    size_t device_name_count;
    /* Work left for this file (NULL: no cap), shared by its runs so one pathological file
     * cannot stall a check. Each statement costs 1 + the bindings it may scan (its state and
     * the module's), a loop also the joins of its rounds; at zero the engine stops, leaving 0
     * here for the caller to report the file. */
    size_t *budget;
    /* Summary mode: set to whether every return of the function comes after a wait for the
     * device with no work queued since (VoiceCraft's `inference` ends with a host read). */
    bool *returns_waited;
    /* Summary mode: set to the first read of a device value on the host (`loss.item()`) that
     * runs on every call, under no periodic guard (a trainer's `_train_step`): a call of it in
     * every iteration of a batch loop waits for the device there (DL201) */
    DlSpan *host_read;
    /* and to 1 + the parameter whose name that read reads (a forward's `cap_lens`, read with
     * `cap_lens.data.tolist()`), 0 when it reads something else: a call given a CPU tensor
     * there waits for nothing (DlFunctionInfo.host_read_parameter) */
    int16_t *host_read_parameter;
    /* and to 1 + the parameter, off by default (`evaluation=False`) but switched on by a call
     * in the file, under whose `if evaluation:` that read is; 0 when it runs on every call
     * (DlFunctionInfo.host_read_when) */
    int16_t *host_read_when;
    /* Summary mode: set to whether every return hands back a blocking copy to a device
     * (`return torch.stack(imgs).cuda()`, OpenIBL's `_parse_data`) with no known device work
     * queued: a call of it is that copy (DlFunctionInfo.returns_blocking_upload). */
    bool *returns_blocking_upload;
    /* Summary mode: set to 1 + the parameters that every call copies to the host with `.cpu()`,
     * `.item()` or `.tolist()` (RocAucMeter's `update(y_true, y_pred)`), the first two, in
     * order: a call given a device tensor there waits for the device
     * (DlFunctionInfo.reads_parameter_back); and to the reads (two of each) */
    int16_t *reads_parameter_back;
    DlSpan *parameter_read;
    bool *parameter_copied; /* ... and whether each read copies it to the host (`.item()`,
                               `.tolist()`, `.cpu()`), not a number made of it (`int(x)`) */
    /* Summary mode: set to whether every return comes after what fails without a GPU (an
     * unconditional `model.cuda()`, DlPlace.cuda_checked): DlFunctionInfo.requires_gpu. */
    bool *requires_gpu;
} DlFlowEnv;

/* The work a file may take: a few seconds at most. The largest real file measured (torch's
 * common_methods_invocations.py, 18k lines) uses 17% of it. */
#define DL_FLOW_BUDGET ((size_t)1000000000)

/* Runs `fn` (NULL: the module body). Returns the join of its return values (NULL if none).
 * With `out_state`, hands over the final state (free with dl_flow_state_free). */
const DlValue *dl_flow_run(const DlFlowEnv *env, const DlFunction *fn, const DlClassInfo *owner,
                           DlFlowState **out_state);

/* The `self.<name>` bindings of a state (what __init__ leaves on self), arena-allocated. */
uint32_t dl_flow_self_attrs(const DlFlowState *s, DlArena *arena, DlAttr **out);

/* The value bound to `key` in a state, or NULL. */
const DlValue *dl_flow_lookup(const DlFlowState *s, const char *key);

void dl_flow_state_free(DlFlowState *s);

#endif
