package functions

import (
	"net/http"
	"slices"
	"strings"
	"testing"
)

// withRoutes runs fn with the route table in the given order, restoring
// the registered one after.
func withRoutes(t *testing.T, order []Route, fn func()) {
	t.Helper()
	saved := routes
	routes = order
	defer func() { routes = saved }()
	fn()
}

// TestRoutesByPrecedence: the most specific pattern serves a path whatever
// the order the routes were registered in (the init functions of the
// handler files run in file name order; nothing may depend on it). The
// table is tried as registered and reversed, and every path built from its
// own patterns (each parameter filled with every literal the table uses at
// that position, and with a value no route names) must pick the same route
// in both orders; a few picks are pinned by hand.
func TestRoutesByPrecedence(t *testing.T) {
	registered := Routes()
	reversed := slices.Clone(registered)
	slices.Reverse(reversed)

	// Literals at each segment position, to fill parameters with.
	literals := map[int][]string{}
	for _, rt := range registered {
		for i, s := range strings.Split(strings.TrimPrefix(rt.Pattern, "/"), "/") {
			if !strings.HasPrefix(s, "{") && !slices.Contains(literals[i], s) {
				literals[i] = append(literals[i], s)
			}
		}
	}
	var paths [][]string
	for _, rt := range registered {
		segs := strings.Split(strings.TrimPrefix(rt.Pattern, "/"), "/")
		paths = append(paths, fill(segs, 0, literals)...)
	}
	type pick struct{ pattern, method string }
	choose := func(segs []string) map[string]pick {
		out := map[string]pick{}
		for _, m := range []string{"GET", "POST", "PUT", "DELETE"} {
			rt, _, allow := matchRoute(m, segs)
			switch {
			case rt != nil:
				out[m] = pick{rt.Pattern, rt.Method}
			case len(allow) > 0:
				out[m] = pick{"405 " + strings.Join(allow, ","), ""}
			}
		}
		return out
	}
	var forward []map[string]pick
	withRoutes(t, registered, func() {
		for _, p := range paths {
			forward = append(forward, choose(p))
		}
	})
	withRoutes(t, reversed, func() {
		for i, p := range paths {
			got := choose(p)
			for m, want := range forward[i] {
				if got[m] != want {
					t.Errorf("%s /%s: registered order picks %v, reversed %v", m, strings.Join(p, "/"), want, got[m])
				}
			}
		}
	})
	if len(paths) < len(registered) {
		t.Fatalf("built %d paths from %d routes", len(paths), len(registered))
	}

	for _, order := range [][]Route{registered, reversed} {
		withRoutes(t, order, func() {
			for _, tt := range []struct {
				method, path, want string
			}{
				{"GET", "/knowledge/query", "/knowledge/query"},
				{"GET", "/knowledge/0b8e1c52", "/knowledge/{id}"},
				{"POST", "/knowledge/contribute", "/knowledge/contribute"},
				// A wrong method on a literal path is 405, not an entry
				// called "contribute".
				{"GET", "/knowledge/contribute", "405 POST,OPTIONS"},
			} {
				segs, _ := splitPath(tt.path)
				rt, _, allow := matchRoute(tt.method, segs)
				got := "405 " + strings.Join(allow, ",")
				if rt != nil {
					got = rt.Pattern
				}
				if got != tt.want {
					t.Errorf("%s %s = %s, want %s", tt.method, tt.path, got, tt.want)
				}
			}
		})
	}

	// Left to right: /a/b/{y} beats /a/{x}/c for /a/b/c, in both orders.
	ab := Route{Method: http.MethodGet, Pattern: "/a/b/{y}"}
	ac := Route{Method: http.MethodGet, Pattern: "/a/{x}/c"}
	for _, order := range [][]Route{{ab, ac}, {ac, ab}} {
		withRoutes(t, order, func() {
			if rt, _, _ := matchRoute("GET", []string{"a", "b", "c"}); rt == nil || rt.Pattern != "/a/b/{y}" {
				t.Errorf("order %s, %s: /a/b/c = %v, want /a/b/{y}", order[0].Pattern, order[1].Pattern, rt)
			}
		})
	}
}

// fill returns segs with each parameter from i on replaced by every
// literal at its position and by one value no route names.
func fill(segs []string, i int, literals map[int][]string) [][]string {
	if i == len(segs) {
		return [][]string{slices.Clone(segs)}
	}
	if !strings.HasPrefix(segs[i], "{") {
		return fill(segs, i+1, literals)
	}
	var out [][]string
	for _, v := range append(slices.Clone(literals[i]), "zz-unnamed") {
		s := slices.Clone(segs)
		s[i] = v
		out = append(out, fill(s, i+1, literals)...)
	}
	return out
}
