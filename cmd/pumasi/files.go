package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/pflag"

	"pumasi"
)

func init() {
	register(command{name: "put", summary: "upload files to a room: put --room R [--if-match SHA] FILE... ", run: runPut})
	register(command{name: "ls", summary: "list a room's files: ls --room R", run: runLs})
	register(command{name: "get", summary: "print a room file: get --room R NAME", run: runGet})
	register(command{name: "rm", summary: "delete a room file: rm --room R NAME", run: runRm})
	register(command{name: "resolve", summary: "resolve $references: resolve --room R TEXT", run: runResolve})
}

func roomFlagSet(env *cliEnv, name string) (*pflag.FlagSet, *string, func() (*client, error)) {
	fs := newFlags(name)
	room := fs.String("room", envOr(env, "PUMASI_ROOM", ""), "room id (env PUMASI_ROOM)")
	return fs, room, clientFlags(env, fs)
}

// needRoom is a usage error when room is missing or not a room id.
func needRoom(room string) error {
	if room == "" {
		return usagef("--room is required (or set PUMASI_ROOM)")
	}
	return asUsage(pumasi.CheckID("room", room))
}

// checkName is a usage error when name cannot be a room file's name.
func checkName(name string) (string, error) {
	n, err := pumasi.NormalizeName(name)
	if err != nil {
		return "", usagef("%q: %s", name, pumasi.ErrorMessage(err))
	}
	return n, nil
}

// upload is one file put is about to send.
type upload struct {
	path, name string
	data       []byte
}

// readUploads reads and checks every file before any is sent, so a bad
// one (missing, binary, too large, a name the server refuses) uploads
// nothing.
func readUploads(env *cliEnv, files []string, name string) ([]upload, error) {
	var ups []upload
	for _, path := range files {
		u := upload{path: path, name: name}
		var err error
		if path == "-" {
			if name == "" {
				return nil, usagef("reading standard input needs --name")
			}
			u.data, err = io.ReadAll(io.LimitReader(env.stdin, pumasi.MaxFileSize+1))
		} else {
			u.data, err = os.ReadFile(path)
			if u.name == "" {
				u.name = filepath.Base(path)
			}
		}
		if err != nil {
			return nil, err
		}
		if u.name, err = checkName(u.name); err != nil {
			return nil, err
		}
		if err := pumasi.CheckNewName(u.name); err != nil {
			return nil, usagef("%q: %s", u.name, pumasi.ErrorMessage(err))
		}
		if _, err := pumasi.CheckContent(u.name, u.data); err != nil {
			return nil, fmt.Errorf("%s: %s (nothing was uploaded)", path, pumasi.ErrorMessage(err))
		}
		ups = append(ups, u)
	}
	return ups, nil
}

func runPut(ctx context.Context, env *cliEnv, args []string) error {
	fs, room, mk := roomFlagSet(env, "put")
	name := fs.String("name", "", "store under this name (one file only)")
	ifMatch := fs.String("if-match", "", "only replace the content with this sha256 (one file only); a stale one is refused with the current sha256, so nobody's change is lost")
	files, err := parseFlags(env, fs, args)
	if err != nil {
		return err
	}
	if err := needRoom(*room); err != nil {
		return err
	}
	if len(files) == 0 {
		return usagef("give at least one FILE (- for standard input, with --name)")
	}
	if *name != "" && len(files) > 1 {
		return usagef("--name works with one file only")
	}
	if *ifMatch != "" && len(files) > 1 {
		return usagef("--if-match works with one file only")
	}
	ups, err := readUploads(env, files, *name)
	if err != nil {
		return err
	}
	c, err := mk()
	if err != nil {
		return err
	}
	for _, u := range ups {
		var buf bytes.Buffer
		mw := multipart.NewWriter(&buf)
		part, err := mw.CreateFormFile("file", u.name)
		if err != nil {
			return err
		}
		part.Write(u.data)
		mw.Close()
		h := http.Header{"Content-Type": {mw.FormDataContentType()}}
		for k, v := range ifMatchHeader(*ifMatch) {
			h[k] = v
		}
		resp, err := c.do(ctx, "POST", roomPath(*room, "files")+"?name="+url.QueryEscape(u.name), &buf, h)
		if err != nil {
			return fmt.Errorf("%s: %w", u.path, staleHint(err))
		}
		var f struct {
			pumasi.File
			Changed bool `json:"changed"`
		}
		err = json.NewDecoder(resp.Body).Decode(&f)
		resp.Body.Close()
		if err != nil {
			return fmt.Errorf("%s: decode answer: %w", u.path, err)
		}
		state := "unchanged"
		if f.Changed {
			state = fmt.Sprintf("v%d", f.Version)
		}
		fmt.Fprintf(env.stdout, "%s\t%s\t%d bytes\t%s\n", f.Name, f.SHA256[:12], f.Size, state)
	}
	return nil
}

func runLs(ctx context.Context, env *cliEnv, args []string) error {
	fs, room, mk := roomFlagSet(env, "ls")
	asJSON := fs.Bool("json", false, "print the listing as JSON")
	pos, err := parseFlags(env, fs, args)
	if err != nil {
		return err
	}
	if err := needRoom(*room); err != nil {
		return err
	}
	if err := noArgs(pos); err != nil {
		return err
	}
	c, err := mk()
	if err != nil {
		return err
	}
	var l pumasi.Listing
	if err := c.doJSON(ctx, "GET", roomPath(*room, "files"), nil, &l); err != nil {
		return err
	}
	if *asJSON {
		return printJSON(env.stdout, l)
	}
	tw := newTable(env.stdout)
	fmt.Fprintf(tw, "NAME\tSIZE\tVERSION\tSHA256\tUPDATED\n")
	for _, f := range l.Files {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%s\t%s\n", f.Name, f.Size, f.Version, f.SHA256[:12], f.UpdatedAt.Format("2006-01-02 15:04:05Z07:00"))
	}
	fmt.Fprintf(tw, "(%s, rev %d)\n", plural(len(l.Files), "file"), l.Rev)
	return tw.Flush()
}

func runGet(ctx context.Context, env *cliEnv, args []string) error {
	fs, room, mk := roomFlagSet(env, "get")
	out := fs.StringP("output", "o", "", "write to this file instead of standard output")
	version := fs.Int("version", 0, "print this kept version instead of the current one (see pumasi versions)")
	pos, err := parseFlags(env, fs, args)
	if err != nil {
		return err
	}
	if err := needRoom(*room); err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("give exactly one NAME")
	}
	if *version < 0 {
		return usagef("--version must be 1 or more")
	}
	n, err := checkName(pos[0])
	if err != nil {
		return err
	}
	c, err := mk()
	if err != nil {
		return err
	}
	path := roomPath(*room, "files", n)
	if *version > 0 {
		path += fmt.Sprintf("?version=%d", *version)
	}
	resp, err := c.do(ctx, "GET", path, nil, nil)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if *out == "" {
		_, err = io.Copy(env.stdout, resp.Body)
		return err
	}
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	return os.WriteFile(*out, data, 0o644)
}

func runRm(ctx context.Context, env *cliEnv, args []string) error {
	fs, room, mk := roomFlagSet(env, "rm")
	pos, err := parseFlags(env, fs, args)
	if err != nil {
		return err
	}
	if err := needRoom(*room); err != nil {
		return err
	}
	if len(pos) == 0 {
		return usagef("give at least one NAME")
	}
	names := make([]string, len(pos))
	for i, p := range pos {
		if names[i], err = checkName(p); err != nil {
			return err
		}
	}
	c, err := mk()
	if err != nil {
		return err
	}
	for _, n := range names {
		resp, err := c.do(ctx, "DELETE", roomPath(*room, "files", n), nil, nil)
		if err != nil {
			return fmt.Errorf("%s: %w", n, err)
		}
		resp.Body.Close()
		fmt.Fprintf(env.stdout, "deleted %s\n", n)
	}
	return nil
}

func runResolve(ctx context.Context, env *cliEnv, args []string) error {
	fs, room, mk := roomFlagSet(env, "resolve")
	asJSON := fs.Bool("json", false, "print the whole answer as JSON")
	pos, err := parseFlags(env, fs, args)
	if err != nil {
		return err
	}
	if err := needRoom(*room); err != nil {
		return err
	}
	text := strings.Join(pos, " ")
	if text == "" || text == "-" {
		b, err := io.ReadAll(io.LimitReader(env.stdin, 64<<10))
		if err != nil {
			return err
		}
		text = string(b)
	}
	c, err := mk()
	if err != nil {
		return err
	}
	var res struct {
		References []map[string]any `json:"references"`
		Unknown    []string         `json:"unknown"`
		Hint       string           `json:"hint"`
	}
	if err := c.doJSON(ctx, "POST", roomPath(*room, "resolve"), map[string]any{"text": text}, &res); err != nil {
		return err
	}
	if *asJSON {
		return printJSON(env.stdout, res)
	}
	if res.Hint != "" {
		fmt.Fprint(env.stdout, strings.TrimRight(res.Hint, "\n")+"\n")
	}
	for _, u := range res.Unknown {
		fmt.Fprintf(env.stderr, "unknown reference: %s\n", u)
	}
	return nil
}
