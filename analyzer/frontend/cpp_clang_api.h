/* libclang, opened when the first C++/CUDA file needs it rather than linked: libclang and LLVM
 * cost every devlint process about 60 MB of memory and tens of milliseconds of relocations at
 * start-up, a price a Python-only project (and every pre-commit run) should not pay.
 *
 * The C++ front end includes this header instead of <clang-c/Index.h>: each clang_* call it
 * makes goes through the table below (`clang_getCString(s)` expands to
 * `dl_clang.clang_getCString(s)`). Call dl_clang_load() before the first one. */
#ifndef DL_CLANG_API_H
#define DL_CLANG_API_H
#include <stdbool.h>
#include <stdint.h>

#include <clang-c/Index.h>

/* Every libclang function the front end (and bench/cpp_parse.c, the unit tests) calls. */
#define DL_CLANG_FUNCTIONS(X) \
    X(clang_Location_isFromMainFile) \
    X(clang_Cursor_isNull) \
    X(clang_Cursor_Evaluate) \
    X(clang_EvalResult_getKind) \
    X(clang_EvalResult_getAsLongLong) \
    X(clang_EvalResult_dispose) \
    X(clang_File_isEqual) \
    X(clang_createIndex) \
    X(clang_defaultDiagnosticDisplayOptions) \
    X(clang_defaultSaveOptions) \
    X(clang_disposeDiagnostic) \
    X(clang_disposeIndex) \
    X(clang_disposeString) \
    X(clang_disposeTokens) \
    X(clang_disposeTranslationUnit) \
    X(clang_equalCursors) \
    X(clang_formatDiagnostic) \
    X(clang_getCString) \
    X(clang_getCanonicalType) \
    X(clang_getClangVersion) \
    X(clang_getCursorExtent) \
    X(clang_getCursorKind) \
    X(clang_getCursorLocation) \
    X(clang_getCursorReferenced) \
    X(clang_getCursorSemanticParent) \
    X(clang_getCursorSpelling) \
    X(clang_getCursorType) \
    X(clang_getDiagnostic) \
    X(clang_getDiagnosticLocation) \
    X(clang_getDiagnosticSeverity) \
    X(clang_getDiagnosticSpelling) \
    X(clang_getFile) \
    X(clang_getFileLocation) \
    X(clang_getFileName) \
    X(clang_getInclusions) \
    X(clang_getLocationForOffset) \
    X(clang_getNonReferenceType) \
    X(clang_getNullCursor) \
    X(clang_getNumDiagnostics) \
    X(clang_getRange) \
    X(clang_getRangeEnd) \
    X(clang_getRangeStart) \
    X(clang_getSpellingLocation) \
    X(clang_getTokenExtent) \
    X(clang_getTokenKind) \
    X(clang_getTokenSpelling) \
    X(clang_getTranslationUnitCursor) \
    X(clang_getTypeDeclaration) \
    X(clang_getTypeSpelling) \
    X(clang_isCursorDefinition) \
    X(clang_isExpression) \
    X(clang_isInvalid) \
    X(clang_isStatement) \
    X(clang_parseTranslationUnit) \
    X(clang_parseTranslationUnit2) \
    X(clang_saveTranslationUnit) \
    X(clang_tokenize) \
    X(clang_visitChildren)

typedef struct DlClangApi {
#define DL_CLANG_MEMBER(name) __typeof__(&name) name;
    DL_CLANG_FUNCTIONS(DL_CLANG_MEMBER)
#undef DL_CLANG_MEMBER
} DlClangApi;

extern DlClangApi dl_clang;

/* Opens libclang once per process ($DEVLINT_LIBCLANG, else the library found at build time)
 * and fills dl_clang. Thread-safe. False, with *error set (malloc'd, caller frees; may be NULL)
 * to the reason, when it cannot be opened or lacks a function. */
bool dl_clang_load(char **error);

/* What tells the libclang dl_clang_load opens (or would) from another, without opening it: its
 * resolved path, size and modification time, for the cache keys of C++ results (a warm run over
 * a project with one C++ file need not map LLVM to name its compiler). 0 when the path is not a
 * file's (a bare soname the dynamic loader resolves): ask the library its version instead. */
uint64_t dl_clang_library_identity(void);

#ifndef DL_CLANG_API_IMPL
#define clang_Cursor_isNull dl_clang.clang_Cursor_isNull
#define clang_Cursor_Evaluate dl_clang.clang_Cursor_Evaluate
#define clang_EvalResult_getKind dl_clang.clang_EvalResult_getKind
#define clang_EvalResult_getAsLongLong dl_clang.clang_EvalResult_getAsLongLong
#define clang_EvalResult_dispose dl_clang.clang_EvalResult_dispose
#define clang_Location_isFromMainFile dl_clang.clang_Location_isFromMainFile
#define clang_File_isEqual dl_clang.clang_File_isEqual
#define clang_createIndex dl_clang.clang_createIndex
#define clang_defaultDiagnosticDisplayOptions dl_clang.clang_defaultDiagnosticDisplayOptions
#define clang_defaultSaveOptions dl_clang.clang_defaultSaveOptions
#define clang_disposeDiagnostic dl_clang.clang_disposeDiagnostic
#define clang_disposeIndex dl_clang.clang_disposeIndex
#define clang_disposeString dl_clang.clang_disposeString
#define clang_disposeTokens dl_clang.clang_disposeTokens
#define clang_disposeTranslationUnit dl_clang.clang_disposeTranslationUnit
#define clang_equalCursors dl_clang.clang_equalCursors
#define clang_formatDiagnostic dl_clang.clang_formatDiagnostic
#define clang_getCString dl_clang.clang_getCString
#define clang_getCanonicalType dl_clang.clang_getCanonicalType
#define clang_getClangVersion dl_clang.clang_getClangVersion
#define clang_getCursorExtent dl_clang.clang_getCursorExtent
#define clang_getCursorKind dl_clang.clang_getCursorKind
#define clang_getCursorLocation dl_clang.clang_getCursorLocation
#define clang_getCursorReferenced dl_clang.clang_getCursorReferenced
#define clang_getCursorSemanticParent dl_clang.clang_getCursorSemanticParent
#define clang_getCursorSpelling dl_clang.clang_getCursorSpelling
#define clang_getCursorType dl_clang.clang_getCursorType
#define clang_getDiagnostic dl_clang.clang_getDiagnostic
#define clang_getDiagnosticLocation dl_clang.clang_getDiagnosticLocation
#define clang_getDiagnosticSeverity dl_clang.clang_getDiagnosticSeverity
#define clang_getDiagnosticSpelling dl_clang.clang_getDiagnosticSpelling
#define clang_getFile dl_clang.clang_getFile
#define clang_getFileLocation dl_clang.clang_getFileLocation
#define clang_getFileName dl_clang.clang_getFileName
#define clang_getInclusions dl_clang.clang_getInclusions
#define clang_getLocationForOffset dl_clang.clang_getLocationForOffset
#define clang_getNonReferenceType dl_clang.clang_getNonReferenceType
#define clang_getNullCursor dl_clang.clang_getNullCursor
#define clang_getNumDiagnostics dl_clang.clang_getNumDiagnostics
#define clang_getRange dl_clang.clang_getRange
#define clang_getRangeEnd dl_clang.clang_getRangeEnd
#define clang_getRangeStart dl_clang.clang_getRangeStart
#define clang_getSpellingLocation dl_clang.clang_getSpellingLocation
#define clang_getTokenExtent dl_clang.clang_getTokenExtent
#define clang_getTokenKind dl_clang.clang_getTokenKind
#define clang_getTokenSpelling dl_clang.clang_getTokenSpelling
#define clang_getTranslationUnitCursor dl_clang.clang_getTranslationUnitCursor
#define clang_getTypeDeclaration dl_clang.clang_getTypeDeclaration
#define clang_getTypeSpelling dl_clang.clang_getTypeSpelling
#define clang_isCursorDefinition dl_clang.clang_isCursorDefinition
#define clang_isExpression dl_clang.clang_isExpression
#define clang_isInvalid dl_clang.clang_isInvalid
#define clang_isStatement dl_clang.clang_isStatement
#define clang_parseTranslationUnit dl_clang.clang_parseTranslationUnit
#define clang_parseTranslationUnit2 dl_clang.clang_parseTranslationUnit2
#define clang_saveTranslationUnit dl_clang.clang_saveTranslationUnit
#define clang_tokenize dl_clang.clang_tokenize
#define clang_visitChildren dl_clang.clang_visitChildren
#endif

#endif
