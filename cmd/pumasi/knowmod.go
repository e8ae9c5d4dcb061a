package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/spf13/pflag"
)

// init registers the moderation commands: anyone who may contribute flags
// an entry; an admin redacts, restores, and undoes merges; anyone reads an
// entry's history.
func init() {
	register(command{name: "know flag", summary: "flag an entry as wrong, outdated, harmful, a duplicate or personal data: know flag ID --reason R [--note N]", run: runKnowFlag})
	register(command{name: "know rm", summary: "redact an entry (admin): know rm ID [--reason R]", run: runKnowRm})
	register(command{name: "know restore", summary: "lift an entry's quarantine (admin): know restore ID", run: runKnowRestore})
	register(command{name: "know unmerge", summary: "undo the merge that absorbed an entry (admin): know unmerge ID", run: runKnowUnmerge})
	register(command{name: "know history", summary: "an entry's merges, flags, supersessions and redaction: know history ID", run: runKnowHistory})
}

// flagReasons are what POST /knowledge/{id}/flag accepts as a reason.
var flagReasons = []string{"wrong", "outdated", "harmful", "duplicate", "pii"}

// modEntry is what the moderation commands print of an entry.
type modEntry struct {
	ID                string `json:"id"`
	Title             string `json:"title"`
	Hive              string `json:"hive"`
	ContributionCount int64  `json:"contribution_count"`
	Flags             int64  `json:"flags"`
	Quarantined       bool   `json:"quarantined"`
	MergedInto        string `json:"merged_into"`
}

// modEvent is one event of GET /knowledge/{id}/history.
type modEvent struct {
	Kind       string    `json:"kind"`
	At         time.Time `json:"at"`
	By         string    `json:"by"`
	OtherID    string    `json:"other_id"`
	Similarity float64   `json:"similarity"`
	Via        string    `json:"via"`
	Reason     string    `json:"reason"`
	Note       string    `json:"note"`
}

// modFlags parses a moderation command's line: one entry id and fs's
// flags. The client carries the admin token only when admin is set.
func modFlags(env *cliEnv, fs *pflag.FlagSet, args []string) (string, error) {
	pos, err := parseFlags(env, fs, args)
	if err != nil {
		return "", err
	}
	if len(pos) != 1 {
		return "", usagef("give one entry id (from know query)")
	}
	id, err := checkEntryID(pos[0])
	return id, asUsage(err)
}

// modSend makes one request and returns the answer's body as sent. A 410
// (a redacted id) says so.
func modSend(ctx context.Context, c *client, method, path, id string, body io.Reader, header http.Header) ([]byte, error) {
	resp, err := c.do(ctx, method, path, body, header)
	if err != nil {
		var ae *apiError
		if errors.As(err, &ae) && ae.Status == http.StatusGone {
			return nil, fmt.Errorf("entry %s was redacted: only its tombstone is left (%w)", id, err)
		}
		return nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 16<<20))
	if err != nil {
		return nil, fmt.Errorf("read answer: %w", err)
	}
	return b, nil
}

// dataOf is the `data` of an answer {"success", "data"}.
func dataOf(b []byte) (json.RawMessage, error) {
	var body struct {
		Data json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal(b, &body); err != nil || len(body.Data) == 0 {
		return nil, fmt.Errorf("answer is not {\"data\": ...}: %.200s", b)
	}
	return body.Data, nil
}

// entryPath is /knowledge/{id} with more segments.
func entryPath(id string, rest ...string) string {
	p := "/knowledge/" + url.PathEscape(id)
	for _, r := range rest {
		p += "/" + r
	}
	return p
}

// printEntryLine prints verb, the entry and its moderation state; with
// asJSON the entry as the server sent it.
func printEntryLine(w io.Writer, raw json.RawMessage, asJSON bool, verb string) error {
	if asJSON {
		var v any
		if err := json.Unmarshal(raw, &v); err != nil {
			return fmt.Errorf("decode answer: %w", err)
		}
		return printJSON(w, v)
	}
	var e modEntry
	if err := json.Unmarshal(raw, &e); err != nil {
		return fmt.Errorf("decode answer: %w", err)
	}
	state := []string{plural(e.ContributionCount, "contribution"), plural(e.Flags, "flag")}
	if e.Quarantined {
		state = append(state, "quarantined: left out of queries and hooks")
	}
	if e.MergedInto != "" {
		state = append(state, "merged into "+e.MergedInto)
	}
	_, err := fmt.Fprintf(w, "%s %s %q: %s\n", verb, e.ID, e.Title, strings.Join(state, " · "))
	return err
}

// publicClient is a client that sends no token (flag, history).
func publicClient(server string) *client {
	return &client{server: strings.TrimRight(server, "/"), http: &http.Client{Timeout: time.Minute}}
}

func runKnowFlag(ctx context.Context, env *cliEnv, args []string) error {
	fs := newFlags("know flag")
	mk := clientFlags(env, fs)
	agent := fs.String("agent", env.getenv("PUMASI_AGENT"), "your handle, sent as X-Hive-Agent (env PUMASI_AGENT); each contributor's flag counts once")
	reason := fs.String("reason", "", "why: "+strings.Join(flagReasons, ", ")+" (required)")
	note := fs.String("note", "", "what is wrong, for the moderator")
	admin := fs.Bool("admin", false, "flag as an admin (sends the admin token): the entry is quarantined at once")
	asJSON := fs.Bool("json", false, "print the entry as JSON")
	id, err := modFlags(env, fs, args)
	if err != nil {
		return err
	}
	if *reason == "" {
		return usagef("--reason is required: %s", strings.Join(flagReasons, ", "))
	}
	if !slices.Contains(flagReasons, *reason) {
		return usagef("--reason %q is not one of %s", *reason, strings.Join(flagReasons, ", "))
	}
	if err := needHandle(*agent); err != nil {
		return err
	}
	var c *client
	if *admin {
		if c, err = mk(); err != nil {
			return err
		}
	} else {
		c = publicClient(fs.Lookup("server").Value.String())
	}
	body, _ := json.Marshal(map[string]string{"reason": *reason, "note": *note})
	h := http.Header{"Content-Type": {"application/json"}, "X-Hive-Agent": {*agent}}
	b, err := modSend(ctx, c, "POST", entryPath(id, "flag"), id, strings.NewReader(string(body)), h)
	if err != nil {
		return err
	}
	var ans struct {
		Data    json.RawMessage `json:"data"`
		Counted bool            `json:"counted"`
	}
	if err := json.Unmarshal(b, &ans); err != nil || len(ans.Data) == 0 {
		return fmt.Errorf("answer is not {\"data\": ..., \"counted\"}: %.200s", b)
	}
	verb := "flagged"
	if !ans.Counted {
		verb = "already flagged by " + *agent + " (not counted again):"
	}
	return printEntryLine(env.stdout, ans.Data, *asJSON, verb)
}

func runKnowRm(ctx context.Context, env *cliEnv, args []string) error {
	fs := newFlags("know rm")
	mk := clientFlags(env, fs)
	reason := fs.String("reason", "", "why, kept in the tombstone (a leaked secret, a wrong fix)")
	id, err := modFlags(env, fs, args)
	if err != nil {
		return err
	}
	c, err := mk()
	if err != nil {
		return err
	}
	path := entryPath(id)
	if *reason != "" {
		path += "?reason=" + url.QueryEscape(*reason)
	}
	if _, err := modSend(ctx, c, "DELETE", path, id, nil, nil); err != nil {
		return err
	}
	fmt.Fprintf(env.stdout, "redacted %s: its text, tags and vectors are gone; the id answers 410 from now on\n", id)
	return nil
}

func runKnowRestore(ctx context.Context, env *cliEnv, args []string) error {
	return runKnowAdminPost(ctx, env, "restore", "restored", args)
}

func runKnowUnmerge(ctx context.Context, env *cliEnv, args []string) error {
	return runKnowAdminPost(ctx, env, "unmerge", "unmerged", args)
}

// runKnowAdminPost serves know restore and know unmerge: an admin's POST
// to /knowledge/{id}/<op>, answered with the entry.
func runKnowAdminPost(ctx context.Context, env *cliEnv, op, verb string, args []string) error {
	fs := newFlags("know " + op)
	mk := clientFlags(env, fs)
	asJSON := fs.Bool("json", false, "print the entry as JSON")
	id, err := modFlags(env, fs, args)
	if err != nil {
		return err
	}
	c, err := mk()
	if err != nil {
		return err
	}
	b, err := modSend(ctx, c, "POST", entryPath(id, op), id, nil, nil)
	if err != nil {
		return err
	}
	raw, err := dataOf(b)
	if err != nil {
		return err
	}
	return printEntryLine(env.stdout, raw, *asJSON, verb)
}

func runKnowHistory(ctx context.Context, env *cliEnv, args []string) error {
	fs := newFlags("know history")
	server := knowServerFlag(env, fs)
	asJSON := fs.Bool("json", false, "print the history as JSON")
	id, err := modFlags(env, fs, args)
	if err != nil {
		return err
	}
	b, err := modSend(ctx, publicClient(*server), "GET", entryPath(id, "history"), id, nil, nil)
	if err != nil {
		return err
	}
	raw, err := dataOf(b)
	if err != nil {
		return err
	}
	if *asJSON {
		var v any
		if err := json.Unmarshal(raw, &v); err != nil {
			return fmt.Errorf("decode answer: %w", err)
		}
		return printJSON(env.stdout, v)
	}
	var h struct {
		EntryID string     `json:"entry_id"`
		Events  []modEvent `json:"events"`
	}
	if err := json.Unmarshal(raw, &h); err != nil {
		return fmt.Errorf("decode answer: %w", err)
	}
	tw := newTable(env.stdout)
	fmt.Fprintf(tw, "WHEN\tKIND\tBY\tDETAILS\n")
	for _, ev := range h.Events {
		by := ev.By
		if by == "" {
			by = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", ev.At.Local().Format(time.DateTime), ev.Kind, by, eventDetails(ev))
	}
	fmt.Fprintf(tw, "(%s of %s)\n", plural(len(h.Events), "event"), h.EntryID)
	return tw.Flush()
}

// eventDetails says in a few words what a history event adds to its kind.
func eventDetails(ev modEvent) string {
	var d []string
	if ev.OtherID != "" {
		d = append(d, "with "+ev.OtherID)
	}
	if ev.Similarity > 0 {
		d = append(d, fmt.Sprintf("similarity %.3f", ev.Similarity))
	}
	if ev.Via != "" {
		d = append(d, "via "+ev.Via)
	}
	if ev.Reason != "" {
		d = append(d, "reason "+ev.Reason)
	}
	if ev.Note != "" {
		d = append(d, fmt.Sprintf("note %q", ev.Note))
	}
	if len(d) == 0 {
		return "-"
	}
	return strings.Join(d, ", ")
}
