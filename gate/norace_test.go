package gate

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestGateHasNoConcurrency keeps the Makefile honest: `make test` runs this
// package once without the race detector (its tests are pure CPU, 13× slower
// under -race for nothing to check). The gate's code still runs under -race
// wherever callers use it concurrently (functions, knowledge, localdev). The
// day the gate starts goroutines or shares state through sync, this fails:
// take pumasi/gate out of the Makefile's NORACE_PKGS.
func TestGateHasNoConcurrency(t *testing.T) {
	ents, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	checked := 0
	for _, e := range ents {
		name := e.Name()
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		checked++
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			if path == "sync" || strings.HasPrefix(path, "sync/") {
				t.Errorf("%s imports %q: the gate has shared state now; run it under -race (Makefile NORACE_PKGS)", fset.Position(imp.Pos()), path)
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if g, ok := n.(*ast.GoStmt); ok {
				t.Errorf("%s starts a goroutine: run the gate under -race (Makefile NORACE_PKGS)", fset.Position(g.Pos()))
			}
			return true
		})
	}
	if checked == 0 {
		t.Fatal("no Go files of the gate found")
	}
}
