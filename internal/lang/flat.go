package lang

/*
#include <stdint.h>
#include <stdbool.h>
#include <stdlib.h>

// Declarations of the tree-sitter C API functions used here. The definitions are
// compiled into the binary by github.com/tree-sitter/go-tree-sitter; the struct
// layouts match tree_sitter/api.h of that module's version (checked by a test).
typedef struct { uint32_t context[4]; const void *id; const void *tree; } TSNode;
typedef struct { const void *tree; const void *id; uint32_t context[3]; } TSTreeCursor;
typedef struct { uint32_t row; uint32_t column; } TSPoint;
extern TSNode ts_tree_root_node(const void *self);
extern TSTreeCursor ts_tree_cursor_new(TSNode node);
extern void ts_tree_cursor_delete(TSTreeCursor *self);
extern TSNode ts_tree_cursor_current_node(const TSTreeCursor *self);
extern uint16_t ts_tree_cursor_current_field_id(const TSTreeCursor *self);
extern bool ts_tree_cursor_goto_first_child(TSTreeCursor *self);
extern bool ts_tree_cursor_goto_next_sibling(TSTreeCursor *self);
extern bool ts_tree_cursor_goto_parent(TSTreeCursor *self);
extern void ts_query_cursor_set_max_start_depth(void *cursor, uint32_t max_start_depth);
extern uint16_t ts_node_symbol(TSNode self);
extern bool ts_node_is_named(TSNode self);
extern bool ts_node_is_missing(TSNode self);
extern uint32_t ts_node_start_byte(TSNode self);
extern uint32_t ts_node_end_byte(TSNode self);
extern TSPoint ts_node_start_point(TSNode self);
extern TSPoint ts_node_end_point(TSNode self);

typedef struct { TSNode node; uint32_t index; } TSQueryCaptureX;
typedef struct { uint32_t id; uint16_t pattern_index; uint16_t capture_count; const void *captures; } TSQueryMatchX;
extern void ts_set_allocator(void *(*m)(size_t), void *(*c)(size_t, size_t), void *(*r)(void *, size_t), void (*f)(void *));
extern void *ts_parser_parse_string(void *parser, const void *old_tree, const char *string, uint32_t length);
extern void *ts_query_cursor_new(void);
extern void ts_query_cursor_delete(void *cursor);
extern void ts_query_cursor_exec(void *cursor, const void *query, TSNode node);
extern bool ts_query_cursor_next_match(void *cursor, TSQueryMatchX *match);

// The Go binding routes every allocation of the C library through Go callbacks;
// parsing allocates a lot, so Cairn hands the library the C allocator directly.
static void cairn_use_c_allocator(void) { ts_set_allocator(malloc, calloc, realloc, free); }

static void *cairn_parse(void *parser, const char *src, uint32_t len) {
  return ts_parser_parse_string(parser, NULL, src, len);
}

typedef struct {
  uint32_t match;   // sequence number of the match
  uint16_t pattern; // pattern index
  uint16_t capture; // capture index
  uint32_t sb, eb;  // byte range of the captured node
  uint16_t sym;
} cairn_capture;

// cairn_band_roots appends to *roots the nodes band levels below r (r's
// children are one level below it); *n and *cap describe the array.
static void cairn_band_roots(TSNode r, uint32_t band, TSNode **roots, int *n, int *cap) {
  TSTreeCursor c = ts_tree_cursor_new(r);
  uint32_t depth = 0;
  for (;;) {
    if (depth < band && ts_tree_cursor_goto_first_child(&c)) {
      depth++;
    } else {
      for (;;) {
        if (depth == 0) {
          ts_tree_cursor_delete(&c);
          return;
        }
        if (ts_tree_cursor_goto_next_sibling(&c)) break;
        ts_tree_cursor_goto_parent(&c);
        depth--;
      }
    }
    if (depth == band) {
      if (*n == *cap) {
        *cap *= 2;
        *roots = (TSNode *)realloc(*roots, sizeof(TSNode) * *cap);
      }
      (*roots)[(*n)++] = ts_tree_cursor_current_node(&c);
    }
  }
}

// cairn_query runs a query over a tree and writes every capture of every match
// (in match order) into out; returns the number of captures the query produced.
//
// A query cursor keeps a state for every match in progress, and a match that
// started at a node stays in progress while the cursor walks the node's
// subtree; every node visited is tried against every state, so one pass over
// a tree nested D levels deep costs D per node. With band > 0 the tree is
// queried in bands of that many levels: one pass over the root in which
// matches may start only in the top band (they still finish below it), then
// one pass over each node band levels down, and so on. Every match starts in
// exactly one band, so the captures are those of one pass (the order of the
// matches differs only in trees deeper than band) and the cost per node is
// bounded by the band.
static int cairn_query(void *cursor, const void *query, const void *tree, cairn_capture *out, int cap, uint32_t band) {
  int nroots = 1, roots_cap = 16;
  TSNode *roots = (TSNode *)malloc(sizeof(TSNode) * roots_cap);
  roots[0] = ts_tree_root_node(tree);
  ts_query_cursor_set_max_start_depth(cursor, band > 0 ? band - 1 : UINT32_MAX);
  int n = 0;
  uint32_t seq = 0;
  for (int next = 0; next < nroots; next++) {
    TSNode root = roots[next];
    ts_query_cursor_exec(cursor, query, root);
    TSQueryMatchX m;
    while (ts_query_cursor_next_match(cursor, &m)) {
      const TSQueryCaptureX *caps = (const TSQueryCaptureX *)m.captures;
      for (int i = 0; i < m.capture_count; i++) {
        if (n < cap) {
          cairn_capture *c = &out[n];
          c->match = seq; c->pattern = m.pattern_index; c->capture = (uint16_t)caps[i].index;
          c->sb = ts_node_start_byte(caps[i].node); c->eb = ts_node_end_byte(caps[i].node);
          c->sym = ts_node_symbol(caps[i].node);
        }
        n++;
      }
      seq++;
    }
    if (band > 0) {
      cairn_band_roots(root, band, &roots, &nroots, &roots_cap);
    }
  }
  free(roots);
  return n;
}

typedef struct {
  uint16_t sym; uint16_t field; int32_t parent;
  uint32_t sb, eb, sr, sc, er, ec;
} cairn_node;

// cairn_flatten writes the named nodes of a tree in pre-order into out (up to cap
// entries) with their parent's index, and returns how many named nodes the tree
// has. It also counts ERROR and MISSING nodes into *errors, records the first
// error's byte offset in *first_error (or UINT32_MAX) and the depth of the
// deepest node (the root's children are at 1) in *max_depth.
static int cairn_flatten(const void *tree, cairn_node *out, int cap, int *errors, uint32_t *first_error, int *max_depth) {
  TSTreeCursor c = ts_tree_cursor_new(ts_tree_root_node(tree));
  int n = 0, depth = 0, stack_cap = 256;
  int32_t *stack = (int32_t *)malloc(sizeof(int32_t) * stack_cap);
  stack[0] = -1;
  *errors = 0;
  *first_error = UINT32_MAX;
  *max_depth = 0;
  for (;;) {
    TSNode node = ts_tree_cursor_current_node(&c);
    int me = -1;
    uint16_t sym = ts_node_symbol(node);
    bool missing = ts_node_is_missing(node);
    if (sym == 65535 || missing) {
      (*errors)++;
      uint32_t b = ts_node_start_byte(node);
      if (b < *first_error) *first_error = b;
    }
    if (ts_node_is_named(node) && !missing) {
      if (n < cap) {
        cairn_node *f = &out[n];
        f->sym = sym;
        f->field = ts_tree_cursor_current_field_id(&c);
        f->parent = stack[depth];
        f->sb = ts_node_start_byte(node);
        f->eb = ts_node_end_byte(node);
        TSPoint p = ts_node_start_point(node);
        f->sr = p.row; f->sc = p.column;
        p = ts_node_end_point(node);
        f->er = p.row; f->ec = p.column;
      }
      me = n++;
    }
    if (ts_tree_cursor_goto_first_child(&c)) {
      depth++;
      if (depth > *max_depth) *max_depth = depth;
      if (depth >= stack_cap) {
        stack_cap *= 2;
        stack = (int32_t *)realloc(stack, sizeof(int32_t) * stack_cap);
      }
      stack[depth] = me >= 0 ? me : stack[depth - 1];
      continue;
    }
    while (!ts_tree_cursor_goto_next_sibling(&c)) {
      if (!ts_tree_cursor_goto_parent(&c)) {
        ts_tree_cursor_delete(&c);
        free(stack);
        return n;
      }
      depth--;
    }
  }
}
*/
import "C"

import (
	"unsafe"

	ts "github.com/tree-sitter/go-tree-sitter"
)

func init() { C.cairn_use_c_allocator() }

// capture is one capture of a query match, flattened.
type capture struct {
	match   uint32
	pattern uint16
	index   uint16
	sb, eb  uint32
	sym     uint16
}

var _ = [1]struct{}{}[unsafe.Sizeof(capture{})-unsafe.Sizeof(C.cairn_capture{})]

// innerPointer returns the C object behind a go-tree-sitter Parser, Tree or
// Query: each of those structs starts with that pointer (v0.25.0, pinned in
// go.mod; checked by TestBindingLayout).
func innerPointer[T any](v *T) unsafe.Pointer {
	return *(*unsafe.Pointer)(unsafe.Pointer(v))
}

// parse parses src in one C call (no read callbacks) and wraps the tree.
func parse(p *ts.Parser, src []byte) *ts.Tree {
	if len(src) == 0 {
		src = []byte{'\n'}
	}
	ct := C.cairn_parse(innerPointer(p), (*C.char)(unsafe.Pointer(&src[0])), C.uint32_t(len(src)))
	if ct == nil {
		return nil
	}
	t := new(ts.Tree)
	*(*unsafe.Pointer)(unsafe.Pointer(t)) = ct
	return t
}

// queryCursor is a C query cursor.
type queryCursor struct{ c unsafe.Pointer }

func newQueryCursor() *queryCursor { return &queryCursor{c: C.ts_query_cursor_new()} }

func (q *queryCursor) close() { C.ts_query_cursor_delete(q.c) }

// Real code rarely nests more than a hundred levels (syntax nodes, not
// definitions): a tree up to onePassDepth levels deep is queried in one pass,
// a deeper one in bands of queryBand levels (see cairn_query), which bounds
// the cost per node by the band.
const (
	onePassDepth = 256
	queryBand    = 32
)

// bandFor is the band to query a tree of the given depth in (0: one pass).
func bandFor(depth int) uint32 {
	if depth <= onePassDepth {
		return 0
	}
	return queryBand
}

// run executes a query over a tree and returns every capture, in match order;
// band is as in cairn_query (0: one pass).
func (q *queryCursor) run(query *ts.Query, t *ts.Tree, buf []capture, band uint32) []capture {
	if cap(buf) < 256 {
		buf = make([]capture, 256)
	}
	buf = buf[:cap(buf)]
	for {
		n := int(C.cairn_query(q.c, innerPointer(query), treePointer(t), (*C.cairn_capture)(unsafe.Pointer(&buf[0])), C.int(len(buf)), C.uint32_t(band)))
		if n <= len(buf) {
			return buf[:n]
		}
		buf = make([]capture, n+n/4)
	}
}

// node is one named syntax node, flattened. Rows and columns are 0-based as
// tree-sitter reports them; columns count bytes.
type node struct {
	sym    uint16
	field  uint16
	parent int32
	sb, eb uint32
	sr, sc uint32
	er, ec uint32
}

// Compile-time check that node and cairn_node have the same size.
var _ = [1]struct{}{}[unsafe.Sizeof(node{})-unsafe.Sizeof(C.cairn_node{})]

// treePointer returns the C tree behind a go-tree-sitter Tree.
func treePointer(t *ts.Tree) unsafe.Pointer { return innerPointer(t) }

// flatten fills buf with the tree's named nodes, growing it when needed; depth
// is how many levels the tree nests, counting every node a cursor visits.
func flatten(t *ts.Tree, buf []node) (nodes []node, errCount int, firstError uint32, depth int) {
	if cap(buf) < 1024 {
		buf = make([]node, 1024)
	}
	buf = buf[:cap(buf)]
	for {
		var cErrors, cDepth C.int
		var cFirst C.uint32_t
		n := int(C.cairn_flatten(treePointer(t), (*C.cairn_node)(unsafe.Pointer(&buf[0])), C.int(len(buf)), &cErrors, &cFirst, &cDepth))
		if n <= len(buf) {
			return buf[:n], int(cErrors), uint32(cFirst), int(cDepth)
		}
		buf = make([]node, n+n/4)
	}
}
