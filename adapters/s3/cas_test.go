package s3

import (
	"encoding/json"
	"fmt"
	"testing"
)

func TestCASMark(t *testing.T) {
	var m casMark
	if _, known := m.writer(1); known {
		t.Fatalf("an unwritten object knows a writer of version 1")
	}
	for i := 1; i <= casHistory+10; i++ {
		m = m.next(fmt.Sprintf("w%d", i))
	}
	if m.Seq != casHistory+10 || len(m.IDs) != casHistory {
		t.Fatalf("after %d writes: seq %d, %d ids; want seq %d, %d ids", casHistory+10, m.Seq, len(m.IDs), casHistory+10, casHistory)
	}
	tests := []struct {
		seq   int64
		id    string
		known bool
	}{
		{m.Seq, fmt.Sprintf("w%d", m.Seq), true},
		{m.Seq - casHistory + 1, fmt.Sprintf("w%d", m.Seq-casHistory+1), true},
		{m.Seq - casHistory, "", false}, // forgotten
		{m.Seq + 1, "", false},          // not written yet
		{0, "", false},
	}
	for _, tt := range tests {
		id, known := m.writer(tt.seq)
		if id != tt.id || known != tt.known {
			t.Errorf("writer(%d) = %q, %v; want %q, %v", tt.seq, id, known, tt.id, tt.known)
		}
	}
}

func TestWithMark(t *testing.T) {
	mark := casMark{Seq: 3, IDs: []string{"a", "b", "c"}}
	for _, in := range []string{`{}`, `{"rev":2,"files":[]}`, ` {"x":1}`} {
		body, err := withMark([]byte(in), mark)
		if in[0] == ' ' {
			if err == nil {
				t.Errorf("withMark(%q) accepted a body that does not start with {", in)
			}
			continue
		}
		if err != nil {
			t.Fatalf("withMark(%q): %v", in, err)
		}
		var any map[string]json.RawMessage
		if err := json.Unmarshal(body, &any); err != nil {
			t.Fatalf("withMark(%q) = %s, not JSON: %v", in, body, err)
		}
		if got := readMark(body); got.Seq != 3 || fmt.Sprint(got.IDs) != "[a b c]" {
			t.Errorf("readMark(withMark(%q)) = %+v", in, got)
		}
		var m manifest
		if err := json.Unmarshal(body, &m); err != nil {
			t.Errorf("decode a marked manifest: %v", err)
		}
	}
	if got := readMark([]byte(`{"rev":1}`)); got.Seq != 0 || got.IDs != nil {
		t.Errorf("readMark of an unmarked object = %+v, want version 0", got)
	}
}
