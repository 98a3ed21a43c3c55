/* Fuzz target: the bytes an editor sends to `devlint lsp` -> the real server loop
 * (dl_lsp_serve: Content-Length framing, JSON-RPC, every request and notification handler, the
 * checks they trigger on the worker threads). The input is the client's whole stdin, read from
 * a memory file, paced into bursts like a person typing (see "bursts" below); what the server
 * writes goes to another one and is read back.
 *
 * Workspace folders in the input could name any directory (`rootUri: file:///`): the walk is
 * redirected (the linker's --wrap of dl_files_collect) to a small private workspace with a
 * device bug in it, so "Run on workspace" and file watching are fuzzed without reading the
 * machine's disk.
 *
 * Properties beyond "no crash, no leak, no undefined behaviour":
 *   - the output is a sequence of well-formed frames (`Content-Length: N\r\n\r\n` and N bytes),
 *     each a JSON-RPC 2.0 object: a request, a notification, or a response with exactly one of
 *     result / error (and an error has a numeric code and a message);
 *   - every message the server handles gets what it is owed: each request, each framing error
 *     and each unreadable message exactly one response, in order, with the request's id (null
 *     when it had none), and notifications and responses none;
 *   - the exit code is 0, or 1 after an `exit` that did not follow `shutdown`;
 *   - no thread the server started outlives the input. */
#define _GNU_SOURCE
#include <dirent.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/types.h>

#include <cjson/cJSON.h>

#include "core/files.h"
#include "fuzz_common.h"
#include "lsp/lsp.h"
#include "lsp/protocol.h"
#include "lsp/transport.h"

/* ------------------------------------------------------------------ the private workspace */

static char workspace[128];

static void write_text(const char *name, const char *text) {
    char path[256];
    snprintf(path, sizeof path, "%s/%s", workspace, name);
    FILE *f = fopen(path, "w");
    if (!f || fputs(text, f) < 0 || fclose(f) != 0) {
        perror("fuzz: writing the workspace");
        abort();
    }
}

static void make_workspace(void) {
    snprintf(workspace, sizeof workspace, "%s/ws", fuzz_tmpdir());
    char pkg[160];
    snprintf(pkg, sizeof pkg, "%s/pkg", workspace);
    if (mkdir(workspace, 0700) != 0 || mkdir(pkg, 0700) != 0) {
        perror("fuzz: mkdir");
        abort();
    }
    write_text("pyproject.toml", "[tool.devlint]\nextend-select = [\"DL3\"]\n");
    write_text("pkg/__init__.py", "");
    write_text("pkg/model.py", "import torch\n"
                               "from torch import nn\n\n"
                               "class Net(nn.Module):\n"
                               "    def __init__(self):\n"
                               "        super().__init__()\n"
                               "        self.fc = nn.Linear(4, 2)\n\n"
                               "    def forward(self, x):\n"
                               "        return self.fc(x) + torch.zeros(2)\n");
    write_text("train.py", "import torch\n"
                           "from pkg.model import Net\n\n"
                           "model = Net()\n"
                           "x = torch.randn(8, 4)\n"
                           "x.to(\"cuda\")\n"
                           "y = model(x)\n");
}

void __real_dl_files_collect(const char *const *paths, size_t path_count, const DlWalkOptions *opts,
                             DlFileList *out);

/* Whatever folders the client named, the server walks the private workspace. */
void __wrap_dl_files_collect(const char *const *paths, size_t path_count, const DlWalkOptions *opts,
                             DlFileList *out) {
    (void)paths, (void)path_count;
    const char *root = workspace;
    __real_dl_files_collect(&root, 1, opts, out);
}

/* ------------------------------------------------------------------ memory files */

static int memory_file(const char *name, const uint8_t *data, size_t size) {
    int fd = memfd_create(name, MFD_CLOEXEC);
    if (fd < 0) {
        perror("fuzz: memfd_create");
        abort();
    }
    for (size_t done = 0; done < size;) {
        ssize_t n = write(fd, data + done, size - done);
        if (n <= 0) abort();
        done += (size_t)n;
    }
    if (lseek(fd, 0, SEEK_SET) != 0) abort();
    return fd;
}

/* The whole content of a memory file (malloc'ed, NUL-terminated). */
static char *slurp(int fd, size_t *len) {
    off_t size = lseek(fd, 0, SEEK_END);
    if (size < 0 || lseek(fd, 0, SEEK_SET) != 0) abort();
    char *buf = malloc((size_t)size + 1);
    if (!buf) abort();
    size_t done = 0;
    while (done < (size_t)size) {
        ssize_t n = read(fd, buf + done, (size_t)size - done);
        if (n <= 0) abort();
        done += (size_t)n;
    }
    buf[done] = '\0';
    *len = done;
    return buf;
}

static size_t thread_count(void) {
    DIR *d = opendir("/proc/self/task");
    if (!d) return 0;
    size_t n = 0;
    for (struct dirent *e; (e = readdir(d));)
        n += e->d_name[0] != '.';
    closedir(d);
    return n;
}

/* ------------------------------------------------------------------ the input's frames */

/* The input read the way the server reads it (the same reader), frame by frame. */
typedef struct Frame {
    size_t end;    /* offset just past the frame */
    bool bad;      /* a framing error */
    bool cancel;   /* a $/cancelRequest */
    bool exit;     /* the exit notification: the server reads no further */
    bool answered; /* owed exactly one response ... */
    char *id;      /* ... with this id (printed JSON; "null" for none) */
} Frame;

typedef struct Frames {
    Frame *items;
    size_t len, cap;
} Frames;

static void frames_free(Frames *f) {
    for (size_t i = 0; i < f->len; i++)
        free(f->items[i].id);
    free(f->items);
}

static void read_frames(const uint8_t *data, size_t size, Frames *frames) {
    int fd = memory_file("fuzz-lsp-frames", data, size);
    DlLspReader reader;
    dl_lsp_reader_init(&reader, fd);
    for (;;) {
        char *body, *error;
        size_t len;
        DlLspRead r = dl_lsp_read(&reader, &body, &len, &error);
        if (r == DL_LSP_READ_EOF) break;
        if (frames->len == frames->cap) {
            frames->cap = frames->cap ? 2 * frames->cap : 16;
            frames->items = realloc(frames->items, frames->cap * sizeof *frames->items);
            if (!frames->items) abort();
        }
        Frame *f = &frames->items[frames->len++];
        memset(f, 0, sizeof *f);
        off_t at = lseek(fd, 0, SEEK_CUR);
        if (at < 0) abort();
        f->end = (size_t)at - (reader.end - reader.start);
        if (r == DL_LSP_READ_BAD) { /* answered with a null id */
            f->bad = f->answered = true;
            f->id = strdup("null");
            if (!f->id) abort();
            free(error);
            continue;
        }
        DlMessage m;
        int code = 0;
        const char *why = NULL;
        bool ok = dl_message_parse(body, len, &m, &code, &why);
        f->answered = !ok || m.kind == DL_MSG_REQUEST;
        if (f->answered) {
            f->id = m.id ? cJSON_PrintUnformatted(m.id) : strdup("null");
            if (!f->id) abort();
        }
        f->exit = ok && m.kind == DL_MSG_NOTIFICATION && strcmp(m.method, "exit") == 0;
        f->cancel = ok && m.kind == DL_MSG_NOTIFICATION && strcmp(m.method, "$/cancelRequest") == 0;
        dl_message_free(&m);
        free(body);
    }
    dl_lsp_reader_free(&reader);
    close(fd);
}

/* ------------------------------------------------------------------ bursts

 * The server handles what is already waiting as one burst, then checks and publishes. From a
 * memory file everything is waiting at once, so the harness paces the input the way a person
 * typing does: each message arrives on its own, except that a $/cancelRequest comes with the
 * message before it (as clients send them). read() and poll() on the session's input are
 * wrapped (--wrap) to stop at those boundaries. */

static int session_fd = -1;
static const Frames *session_frames;

ssize_t __real_read(int fd, void *buf, size_t count);
int __real_poll(struct pollfd *fds, nfds_t nfds, int timeout);

/* The end of the burst the input offset `at` is in (SIZE_MAX: the end of the input). */
static size_t burst_end(size_t at) {
    const Frames *f = session_frames;
    for (size_t i = 0; i < f->len; i++)
        if (f->items[i].end > at && (i + 1 == f->len || !f->items[i + 1].cancel))
            return f->items[i].end;
    return SIZE_MAX;
}

static size_t input_offset(int fd) {
    off_t at = lseek(fd, 0, SEEK_CUR);
    if (at < 0) abort();
    return (size_t)at;
}

ssize_t __wrap_read(int fd, void *buf, size_t count) {
    if (fd == session_fd && session_frames) {
        size_t at = input_offset(fd), end = burst_end(at);
        if (end != SIZE_MAX && count > end - at) count = end - at;
    }
    return __real_read(fd, buf, count);
}

int __wrap_poll(struct pollfd *fds, nfds_t nfds, int timeout) {
    if (nfds == 1 && fds[0].fd == session_fd && session_frames) {
        size_t at = input_offset(fds[0].fd);
        if (at > 0 && burst_end(at - 1) == at) {
            fds[0].revents = 0;
            return 0; /* the next message has not been sent yet */
        }
    }
    return __real_poll(fds, nfds, timeout);
}

/* ------------------------------------------------------------------ what the server wrote */

/* One message the server wrote: a request, a notification or a response. Returns the
 * response's id (printed, malloc'ed) or NULL for the others. */
static char *check_message(const char *body, size_t len) {
    cJSON *m = cJSON_ParseWithLength(body, len);
    FUZZ_ASSERT(cJSON_IsObject(m), "the server wrote a body that is not a JSON object: %.*s",
                (int)len, body);
    const char *version = dl_json_string(m, "jsonrpc");
    FUZZ_ASSERT(version && strcmp(version, "2.0") == 0, "no \"jsonrpc\": \"2.0\": %.*s", (int)len,
                body);
    const cJSON *id = cJSON_GetObjectItemCaseSensitive(m, "id");
    const cJSON *method = cJSON_GetObjectItemCaseSensitive(m, "method");
    char *response_id = NULL;
    if (method) {
        FUZZ_ASSERT(cJSON_IsString(method), "a method that is not a string: %.*s", (int)len, body);
        FUZZ_ASSERT(!id || cJSON_IsNumber(id), "a server request with a bad id: %.*s", (int)len,
                    body);
        FUZZ_ASSERT(!cJSON_HasObjectItem(m, "result") && !cJSON_HasObjectItem(m, "error"),
                    "a request with a result or an error: %.*s", (int)len, body);
    } else {
        FUZZ_ASSERT(cJSON_IsNumber(id) || cJSON_IsString(id) || cJSON_IsNull(id),
                    "a response without a valid id: %.*s", (int)len, body);
        bool result = cJSON_HasObjectItem(m, "result");
        const cJSON *error = cJSON_GetObjectItemCaseSensitive(m, "error");
        FUZZ_ASSERT(result != (error != NULL), "a response needs a result or an error: %.*s",
                    (int)len, body);
        if (error) {
            long code;
            FUZZ_ASSERT(dl_json_long(error, "code", &code) && dl_json_string(error, "message"),
                        "an error without a code and a message: %.*s", (int)len, body);
        }
        response_id = cJSON_PrintUnformatted(id);
        if (!response_id) abort();
    }
    cJSON_Delete(m);
    return response_id;
}

/* The frames of the server's output, each checked; the responses matched against `owed`. */
static void check_output(const char *out, size_t len, const Frames *frames) {
    /* the responses owed, in order, up to the exit notification */
    size_t owed = 0;
    const char **ids = malloc((frames->len + 1) * sizeof *ids);
    if (!ids) abort();
    for (size_t i = 0; i < frames->len && !frames->items[i].exit; i++)
        if (frames->items[i].answered) ids[owed++] = frames->items[i].id;
    static const char prefix[] = "Content-Length: ";
    size_t pos = 0, responses = 0;
    while (pos < len) {
        FUZZ_ASSERT(len - pos > sizeof prefix - 1 &&
                        memcmp(out + pos, prefix, sizeof prefix - 1) == 0,
                    "a frame that does not start with Content-Length at byte %zu", pos);
        pos += sizeof prefix - 1;
        size_t n = 0, digits = 0;
        while (pos < len && out[pos] >= '0' && out[pos] <= '9' && digits < 12) {
            n = n * 10 + (size_t)(out[pos++] - '0');
            digits++;
        }
        FUZZ_ASSERT(digits > 0 && len - pos >= 4 && memcmp(out + pos, "\r\n\r\n", 4) == 0,
                    "a malformed frame header before byte %zu", pos);
        pos += 4;
        FUZZ_ASSERT(len - pos >= n, "a frame of %zu bytes with %zu left", n, len - pos);
        char *id = check_message(out + pos, n);
        if (id) {
            FUZZ_ASSERT(responses < owed, "response %zu (id %s) to no request", responses + 1, id);
            FUZZ_ASSERT(strcmp(id, ids[responses]) == 0,
                        "response %zu has id %s, the request's was %s", responses + 1, id,
                        ids[responses]);
            responses++;
            free(id);
        }
        pos += n;
    }
    FUZZ_ASSERT(responses == owed, "%zu responses for %zu requests", responses, owed);
    free(ids);
}

/* ------------------------------------------------------------------ the target */

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc, (void)argv;
    /* The server logs every message on stderr: the fuzzing runs close it (-close_fd_mask=2),
     * after this, so failed properties are still shown. */
    int fd = dup(2);
    if (fd >= 0) fuzz_report = fdopen(fd, "w");
    make_workspace();
    /* nothing the server does may write to the user's cache */
    setenv("XDG_CACHE_HOME", fuzz_tmpdir(), 1);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    Frames frames = {0};
    read_frames(data, size, &frames);
    size_t threads = thread_count();
    int in = memory_file("fuzz-lsp-in", data, size);
    int out = memory_file("fuzz-lsp-out", NULL, 0);
    session_fd = in;
    /* Paced, the server reads in other pieces than read_frames did: the same frames as long as
     * no header block can reach the header limit. */
    session_frames = size < DL_LSP_MAX_HEADER ? &frames : NULL;
    DlLspOptions options = {.jobs = 2}; /* the worker pool runs, as in an editor */
    int code = dl_lsp_serve(in, out, &options);
    session_fd = -1;
    session_frames = NULL;
    FUZZ_ASSERT(code == 0 || code == 1, "exit code %d", code);
    /* a joined thread can still be listed for a moment: the kernel wakes its joiner before it
     * takes the thread out of /proc/self/task (seen once under load); one left behind stays */
    for (int wait = 0; wait < 100 && thread_count() > threads; wait++) usleep(10000);
    FUZZ_ASSERT(thread_count() == threads, "%zu threads before the session, %zu after", threads,
                thread_count());

    size_t len;
    char *written = slurp(out, &len);
    if (getenv("FUZZ_LSP_SHOW")) { /* what the server wrote, for reading a case by hand */
        FILE *show = fuzz_report ? fuzz_report : stderr;
        fprintf(show, "[%zu frames in, %zu bytes out]\n", frames.len, len);
        fwrite(written, 1, len, show);
        fputc('\n', show);
        fflush(show);
    }
    check_output(written, len, &frames);
    free(written);
    frames_free(&frames);
    close(in);
    close(out);
    return 0;
}
