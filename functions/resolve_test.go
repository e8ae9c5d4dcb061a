package functions

import (
	"encoding/json"
	"strings"
	"testing"

	"pumasi"
	"pumasi/prompt"
)

func TestResolveEndpoint(t *testing.T) {
	e := newTestEnv(t)
	for _, n := range []string{"spec.md", "my notes.md"} {
		if r := e.upload("r1", n, []byte("x\n"), nil); r.status != 201 {
			t.Fatalf("upload %s = %d", n, r.status)
		}
	}
	if r := e.upload("r2", "secret.md", []byte("r2 only\n"), nil); r.status != 201 {
		t.Fatalf("upload r2 = %d", r.status)
	}
	body := `{"text":"see $spec.md. and $\"my notes.md\", not \\$spec.md, $HOME $5 $missing.md $secret.md"}`
	r := e.do("POST", "/rooms/r1/resolve", e.admin, strings.NewReader(body), map[string]string{"Content-Type": "application/json"})
	if r.status != 200 {
		t.Fatalf("resolve = %d %s", r.status, r.body)
	}
	var got prompt.Resolution
	if err := json.Unmarshal(r.body, &got); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, ref := range got.References {
		names = append(names, ref.Name)
		if ref.Path != "memory/shared/"+ref.Name || len(ref.SHA256) != 64 || ref.ID == "" {
			t.Errorf("reference %+v is incomplete", ref)
		}
	}
	if strings.Join(names, "|") != "spec.md|my notes.md" {
		t.Fatalf("references = %v, want spec.md and my notes.md", names)
	}
	if strings.Join(got.Unknown, "|") != "missing.md|secret.md" {
		t.Fatalf("unknown = %v, want missing.md and secret.md (another room's file)", got.Unknown)
	}
	want := "<referenced-files>\n- spec.md: memory/shared/spec.md\n- my notes.md: memory/shared/my notes.md\n</referenced-files>"
	if strings.TrimSpace(got.Hint) != want {
		t.Fatalf("hint = %q, want %q", got.Hint, want)
	}

	bad := []struct {
		name, body, token string
		status            int
		code              string
	}{
		{"bad json", `{"text":`, e.admin, 400, pumasi.EInvalidRequest},
		{"wrong type", `{"text": 5}`, e.admin, 400, pumasi.EInvalidRequest},
		{"trailing data", `{"text":"a"} {}`, e.admin, 400, pumasi.EInvalidRequest},
		{"broken utf-8", "{\"text\":\"caf\xe9\"}", e.admin, 400, pumasi.EInvalidRequest},
		{"oversize", `{"text":"` + strings.Repeat("a", MaxJSONBody) + `"}`, e.admin, 413, pumasi.ETooLarge},
		{"missing auth", `{"text":"a"}`, "", 401, pumasi.EUnauthorized},
		{"wrong room", `{"text":"a"}`, e.token("room:r2"), 403, pumasi.EForbidden},
	}
	for _, c := range bad {
		r := e.do("POST", "/rooms/r1/resolve", c.token, strings.NewReader(c.body), nil)
		if r.status != c.status || r.code() != c.code {
			t.Errorf("%s: %d %q, want %d %q", c.name, r.status, r.code(), c.status, c.code)
		}
	}
}
