package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strconv"
	"strings"
	"time"

	"pumasi"
)

func init() {
	register(command{name: "versions", summary: "a room file's kept versions: versions ROOM NAME", run: runVersions})
	register(command{name: "log", summary: "a room's changes, who made them: log ROOM [--since REV]", run: runLog})
	register(command{name: "diff", summary: "line diff of two versions: diff ROOM NAME A B", run: runDiff})
	register(command{name: "restore", summary: "make a kept version current again: restore ROOM NAME --version N", run: runRestore})
}

// roomAndName takes ROOM and NAME from the positional arguments; --room (or
// PUMASI_ROOM) may stand for ROOM. want is how many more arguments the
// command takes after them.
func roomAndName(pos []string, room string, names, want int, usage string) (string, []string, error) {
	if len(pos) == names+want+1 {
		room, pos = pos[0], pos[1:]
	}
	if len(pos) != names+want || room == "" {
		return "", nil, usagef("want %s", usage)
	}
	if err := pumasi.CheckID("room", room); err != nil {
		return "", nil, asUsage(err)
	}
	for i := range names {
		n, err := checkName(pos[i])
		if err != nil {
			return "", nil, err
		}
		pos[i] = n
	}
	return room, pos, nil
}

func runVersions(ctx context.Context, env *cliEnv, args []string) error {
	fs, room, mk := roomFlagSet(env, "versions")
	asJSON := fs.Bool("json", false, "print the versions as JSON")
	pos, err := parseFlags(env, fs, args)
	if err != nil {
		return err
	}
	r, rest, err := roomAndName(pos, *room, 1, 0, "versions ROOM NAME")
	if err != nil {
		return err
	}
	c, err := mk()
	if err != nil {
		return err
	}
	var vl struct {
		Versions []pumasi.FileVersion `json:"versions"`
	}
	if err := c.doJSON(ctx, "GET", roomPath(r, "files", rest[0], "versions"), nil, &vl); err != nil {
		return err
	}
	if *asJSON {
		return printJSON(env.stdout, vl)
	}
	tw := newTable(env.stdout)
	fmt.Fprintf(tw, "VERSION\tSIZE\tSHA256\tBY\tWHEN\tNOTE\n")
	for _, v := range vl.Versions {
		sha, note := short(v.SHA256), ""
		switch {
		case v.Deleted:
			sha, note = "-", "deleted"
		case v.RestoredFrom > 0:
			note = fmt.Sprintf("restored v%d", v.RestoredFrom)
		}
		if v.Current {
			note = strings.TrimSpace(note + " current")
		}
		fmt.Fprintf(tw, "%d\t%d\t%s\t%s\t%s\t%s\n", v.Version, v.Size, sha, v.UploadedBy, v.CreatedAt.Local().Format(time.DateTime), note)
	}
	return tw.Flush()
}

func short(sha string) string {
	if len(sha) > 12 {
		return sha[:12]
	}
	return sha
}

func runLog(ctx context.Context, env *cliEnv, args []string) error {
	fs, room, mk := roomFlagSet(env, "log")
	since := fs.Int64("since", 0, "only changes after this rev")
	limit := fs.Int("limit", 0, "at most this many changes (0: every one, read page by page)")
	asJSON := fs.Bool("json", false, "print the changes as JSON")
	pos, err := parseFlags(env, fs, args)
	if err != nil {
		return err
	}
	r, _, err := roomAndName(pos, *room, 0, 0, "log ROOM [--since REV]")
	if err != nil {
		return err
	}
	if *since < 0 || *limit < 0 {
		return usagef("--since and --limit must be 0 or more")
	}
	c, err := mk()
	if err != nil {
		return err
	}
	var all []pumasi.Change
	for next := *since; ; {
		page := pumasi.MaxLogLimit
		if *limit > 0 {
			page = min(page, *limit-len(all))
		}
		var l pumasi.RoomLog
		q := "?since=" + strconv.FormatInt(next, 10) + "&limit=" + strconv.Itoa(page)
		if err := c.doJSON(ctx, "GET", roomPath(r, "log")+q, nil, &l); err != nil {
			return err
		}
		all = append(all, l.Changes...)
		if !l.More || len(l.Changes) == 0 || (*limit > 0 && len(all) >= *limit) {
			break
		}
		next = l.Changes[len(l.Changes)-1].Rev
	}
	if *asJSON {
		return printJSON(env.stdout, all)
	}
	tw := newTable(env.stdout)
	fmt.Fprintf(tw, "REV\tWHEN\tBY\tCHANGE\n")
	for _, ch := range all {
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\n", ch.Rev, ch.At.Local().Format(time.DateTime), ch.By, describeChange(ch))
	}
	return tw.Flush()
}

// describeChange says what a change did, in one line.
func describeChange(c pumasi.Change) string {
	arrow := func() string {
		from, to := short(c.FromSHA256), short(c.ToSHA256)
		if from == "" {
			from = "(new)"
		}
		if to == "" {
			to = "(gone)"
		}
		return from + " -> " + to
	}
	switch c.Kind {
	case pumasi.ChangeUpload:
		return fmt.Sprintf("upload %s v%d %s", c.Name, c.Version, arrow())
	case pumasi.ChangeDelete:
		return fmt.Sprintf("delete %s v%d %s", c.Name, c.Version, arrow())
	case pumasi.ChangeRestore:
		return fmt.Sprintf("restore %s v%d from v%d %s", c.Name, c.Version, c.RestoredFrom, arrow())
	case pumasi.ChangePlace:
		return fmt.Sprintf("place %s on %s", c.Agent, c.Machine)
	case pumasi.ChangeUnplace:
		return fmt.Sprintf("unplace %s from %s", c.Agent, c.Machine)
	case pumasi.ChangeMove:
		switch {
		case c.FromRoom != "":
			return fmt.Sprintf("move %s in from room %s, on %s", c.Agent, c.FromRoom, c.Machine)
		case c.ToRoom != "":
			return fmt.Sprintf("move %s out to room %s", c.Agent, c.ToRoom)
		}
		return fmt.Sprintf("move %s from %s to %s", c.Agent, c.FromMachine, c.Machine)
	}
	return c.Kind
}

func runRestore(ctx context.Context, env *cliEnv, args []string) error {
	fs, room, mk := roomFlagSet(env, "restore")
	version := fs.Int("version", 0, "the version to make current again (see pumasi versions)")
	ifMatch := fs.String("if-match", "", "only if the current content has this sha256 (a stale one is refused with the current sha256)")
	pos, err := parseFlags(env, fs, args)
	if err != nil {
		return err
	}
	r, rest, err := roomAndName(pos, *room, 1, 0, "restore ROOM NAME --version N")
	if err != nil {
		return err
	}
	if *version < 1 {
		return usagef("--version N is required (pumasi versions ROOM NAME lists them)")
	}
	c, err := mk()
	if err != nil {
		return err
	}
	var f struct {
		pumasi.File
		Changed bool `json:"changed"`
	}
	h := ifMatchHeader(*ifMatch)
	resp, err := c.do(ctx, "POST", roomPath(r, "files", rest[0], "restore"), strings.NewReader(fmt.Sprintf(`{"version":%d}`, *version)), h)
	if err != nil {
		return staleHint(err)
	}
	defer resp.Body.Close()
	if err := decodeBody(resp.Body, &f); err != nil {
		return err
	}
	state := "unchanged: it already holds that content"
	if f.Changed {
		state = fmt.Sprintf("restored as v%d", f.Version)
	}
	fmt.Fprintf(env.stdout, "%s\tv%d's content\t%s\t%s\n", f.Name, *version, short(f.SHA256), state)
	return nil
}

func runDiff(ctx context.Context, env *cliEnv, args []string) error {
	fs, room, mk := roomFlagSet(env, "diff")
	around := fs.Int("context", 3, "lines of context around each change")
	pos, err := parseFlags(env, fs, args)
	if err != nil {
		return err
	}
	r, rest, err := roomAndName(pos, *room, 1, 2, "diff ROOM NAME A B (versions, or current)")
	if err != nil {
		return err
	}
	name := rest[0]
	var paths [2]string
	for i, v := range rest[1:] {
		paths[i] = roomPath(r, "files", name)
		if v != "current" && v != "cur" {
			n, err := strconv.Atoi(strings.TrimPrefix(v, "v"))
			if err != nil || n < 1 {
				return usagef("version %q is not a number (or current)", v)
			}
			paths[i] += "?version=" + url.QueryEscape(strconv.Itoa(n))
		}
	}
	if *around < 0 {
		return usagef("--context must be 0 or more")
	}
	c, err := mk()
	if err != nil {
		return err
	}
	var texts [2]string
	for i, v := range rest[1:] {
		resp, err := c.do(ctx, "GET", paths[i], nil, nil)
		if err != nil {
			return fmt.Errorf("version %s: %w", v, err)
		}
		b, err := io.ReadAll(io.LimitReader(resp.Body, pumasi.MaxFileSize+1))
		resp.Body.Close()
		if err != nil {
			return err
		}
		texts[i] = string(b)
	}
	out := versionDiff(name+"@"+rest[1], name+"@"+rest[2], texts[0], texts[1], *around)
	_, err = io.WriteString(env.stdout, out)
	return err
}

// ifMatchHeader is the If-Match header for a sha256 given bare or quoted.
func ifMatchHeader(sha string) map[string][]string {
	sha = strings.Trim(strings.TrimSpace(sha), `"`)
	if sha == "" {
		return nil
	}
	if sha == "*" {
		return map[string][]string{"If-Match": {"*"}}
	}
	return map[string][]string{"If-Match": {strconv.Quote(sha)}}
}

// staleHint turns a refused precondition into the advice to re-read.
func staleHint(err error) error {
	var ae *apiError
	if errors.As(err, &ae) && ae.Code == pumasi.EPreconditionFailed {
		return fmt.Errorf("%w (someone changed it first: read the current version, redo your edit on it, and pass its sha256 to --if-match)", err)
	}
	return err
}

func decodeBody(r io.Reader, v any) error {
	if err := json.NewDecoder(r).Decode(v); err != nil {
		return fmt.Errorf("decode answer: %w", err)
	}
	return nil
}
