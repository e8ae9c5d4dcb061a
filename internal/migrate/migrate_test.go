package migrate

import (
	"strings"
	"testing"
	"testing/fstest"
)

// TestLoadOrders: files come back in version order whatever their names
// sort as, with their sums; a name without a version is refused.
func TestLoadOrders(t *testing.T) {
	fsys := fstest.MapFS{
		"m/0010_b.sql": {Data: []byte("b")},
		"m/0002_a.sql": {Data: []byte("a")},
		"m/0100_c.sql": {Data: []byte("c")},
		"m/README.md":  {Data: []byte("not a migration")},
	}
	ms, err := Load(fsys, "m")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range ms {
		got = append(got, m.File())
	}
	if want := "0002_a.sql 0010_b.sql 0100_c.sql"; strings.Join(got, " ") != want {
		t.Fatalf("Load = %v, want %s", got, want)
	}
	if ms[0].Sum != Sum([]byte("a")) || ms[0].Version != 2 {
		t.Fatalf("first = %+v", ms[0])
	}
	fsys["m/latest.sql"] = &fstest.MapFile{Data: []byte("x")}
	if _, err := Load(fsys, "m"); err == nil {
		t.Fatal("a migration without a version was loaded")
	}
}

// TestPlan: what the runner applies, records and refuses.
func TestPlan(t *testing.T) {
	ms := []Migration{{Version: 1, Name: "0001_a", Sum: "s1"}, {Version: 2, Name: "0002_b", Sum: "s2"}, {Version: 3, Name: "0003_c", Sum: "s3"}}
	for _, tt := range []struct {
		name          string
		applied       map[int]Applied
		apply, record int
		err           string
	}{
		{"fresh", map[int]Applied{}, 3, 0, ""},
		{"current", map[int]Applied{1: {"0001_a", "s1"}, 2: {"0002_b.sql", "s2"}, 3: {"0003_c", "s3"}}, 0, 0, ""},
		{"one new", map[int]Applied{1: {"0001_a", "s1"}, 2: {"0002_b", "s2"}}, 1, 0, ""},
		{"before checksums", map[int]Applied{1: {"0001_a.sql", ""}, 2: {"0002_b.sql", ""}}, 1, 2, ""},
		{"newer database", map[int]Applied{1: {"0001_a", "s1"}, 2: {"0002_b", "s2"}, 3: {"0003_c", "s3"}, 4: {"0004_d", "s4"}}, 0, 0, ""},
		{"edited", map[int]Applied{1: {"0001_a", "other"}}, 0, 0, "0001_a.sql was applied with sha256 other"},
		{"renamed", map[int]Applied{2: {"0002_x.sql", "s2"}}, 0, 0, "version 2 was applied as 0002_x.sql"},
	} {
		apply, record, err := plan(ms, tt.applied)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%s: err = %v, want %q", tt.name, err, tt.err)
			}
			continue
		}
		if err != nil || len(apply) != tt.apply || len(record) != tt.record {
			t.Errorf("%s: apply %d, record %d, err %v; want %d, %d", tt.name, len(apply), len(record), err, tt.apply, tt.record)
		}
	}
}
