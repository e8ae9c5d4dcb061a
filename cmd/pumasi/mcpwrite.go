package main

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/pflag"

	"pumasi"
)

// write_shared_file: an agent edits a shared file through the server, never
// its own copy (the daemon owns memory/shared/). Every write is conditional
// on the content the edit started from (If-Match on its sha256, or
// If-None-Match: * for a new file), so two agents editing from one version
// cannot lose each other's change: the second is told the current sha256
// and content, redoes its edit on them, and both versions stay in the
// room's history. The tool is offered only when the server is given a
// token (--token or PUMASI_TOKEN, never the home's admin.token) whose
// scopes may write the room.

func init() {
	mcpToolsets = append(mcpToolsets, mcpToolset{name: "shared writes", flags: writeMCPFlags, add: addSharedWriteTools})
}

var writeMCPToken, writeMCPRoom *pflag.Flag

func writeMCPFlags(fs *pflag.FlagSet) {
	if fs.Lookup("server") == nil {
		fs.String("server", "", "pumasi server (env PUMASI_SERVER, default "+defaultServer+")")
	}
	fs.String("token", "", "a token that may write the agent's room (env PUMASI_TOKEN): offers write_shared_file")
	fs.String("room", "", "the agent's room for write_shared_file (env PUMASI_ROOM; default the one room the token names, else where the agent is placed)")
	writeMCPToken, writeMCPRoom = fs.Lookup("token"), fs.Lookup("room")
}

// writeConfig is what write_shared_file needs.
type writeConfig struct {
	server, token, room string
}

func flagValue(f *pflag.Flag) string {
	if f == nil {
		return ""
	}
	return f.Value.String()
}

func addSharedWriteTools(s *mcp.Server, cfg *mcpConfig) error {
	server := ""
	if f := knowMCPServer; f != nil {
		server = f.Value.String()
	}
	wc := writeConfig{
		server: firstNonEmpty(server, cfg.env.getenv("PUMASI_SERVER"), defaultServer),
		token:  firstNonEmpty(flagValue(writeMCPToken), cfg.env.getenv("PUMASI_TOKEN")),
		room:   firstNonEmpty(flagValue(writeMCPRoom), cfg.env.getenv("PUMASI_ROOM")),
	}
	return addWriteTool(s, cfg, wc)
}

func firstNonEmpty(vs ...string) string {
	for _, v := range vs {
		if v = strings.TrimSpace(v); v != "" {
			return v
		}
	}
	return ""
}

// tokenWriteRooms reads, without verifying (the server does), which rooms a
// token's scopes may write: all for admin, else its room:<id> scopes.
func tokenWriteRooms(tok string) (admin bool, rooms []string) {
	parts := strings.Split(tok, ".")
	if len(parts) != 3 {
		return false, nil
	}
	payload, err := base64.RawURLEncoding.DecodeString(parts[1])
	if err != nil {
		return false, nil
	}
	var c struct {
		Scope string `json:"scope"`
	}
	if json.Unmarshal(payload, &c) != nil {
		return false, nil
	}
	for _, sc := range strings.Fields(c.Scope) {
		switch {
		case sc == pumasi.ScopeAdmin:
			admin = true
		case strings.HasPrefix(sc, pumasi.ScopeRoom) && pumasi.ValidID(sc[len(pumasi.ScopeRoom):]):
			rooms = append(rooms, sc[len(pumasi.ScopeRoom):])
		}
	}
	return admin, rooms
}

type writeSharedFileInput struct {
	Name       string `json:"name" jsonschema:"the shared file's name"`
	Content    string `json:"content" jsonschema:"the whole new content of the file (text, at most 256 KiB)"`
	BaseSHA256 string `json:"base_sha256" jsonschema:"sha256 of the content your edit starts from, as read_shared_file or list_shared_files gave it; empty to create a file that does not exist yet"`
}

type writeSharedFileOutput struct {
	Name    string `json:"name"`
	SHA256  string `json:"sha256"`
	Version int    `json:"version"`
	Changed bool   `json:"changed"`
}

// writeAnnotations: a write changes a file every agent of the room reads;
// it is not destructive (the old version stays in the history) and
// repeating it with the same base is refused or changes nothing.
var writeAnnotations = &mcp.ToolAnnotations{Title: "Write a shared file", DestructiveHint: ptr(false), IdempotentHint: true, OpenWorldHint: ptr(true)}

// maxConflictContent bounds the current content a conflict answer carries.
const maxConflictContent = 64 << 10

func addWriteTool(s *mcp.Server, cfg *mcpConfig, wc writeConfig) error {
	if wc.token == "" {
		return nil
	}
	admin, rooms := tokenWriteRooms(wc.token)
	if !admin && len(rooms) == 0 {
		return nil // A machine token reads, never writes.
	}
	if wc.room != "" && !admin && !containsString(rooms, wc.room) {
		return nil
	}
	c := &client{server: strings.TrimRight(wc.server, "/"), token: wc.token, http: &http.Client{Timeout: time.Minute}}
	room := func(ctx context.Context) (string, error) {
		switch {
		case wc.room != "":
			return wc.room, nil
		case !admin && len(rooms) == 1:
			return rooms[0], nil
		}
		var res struct {
			Rooms []pumasi.RoomSummary `json:"rooms"`
		}
		if err := c.doJSON(ctx, "GET", "/rooms", nil, &res); err != nil {
			return "", err
		}
		for _, r := range res.Rooms {
			if containsString(r.Agents, cfg.agent) {
				return r.RoomID, nil
			}
		}
		return "", pumasi.Errorf(pumasi.ENotFound, "agent %s is not placed in a room this token reaches; start the server with --room", cfg.agent)
	}
	addTool(s, &mcp.Tool{
		Name: "write_shared_file",
		Description: "Write a file shared with your room, for every agent placed in it. Pass the sha256 of the content " +
			"your edit starts from as base_sha256 (empty for a new file): if someone changed the file since, nothing is " +
			"written and you get a conflict with the current sha256 and content; redo your edit on them and write again. " +
			"Earlier versions stay in the room's history.",
		Annotations: writeAnnotations,
	}, nil, func(ctx context.Context, _ *mcp.CallToolRequest, in writeSharedFileInput) (*mcp.CallToolResult, writeSharedFileOutput, error) {
		name, err := pumasi.NormalizeName(in.Name)
		if err != nil {
			return nil, writeSharedFileOutput{}, toolError(err)
		}
		if _, err := pumasi.CheckContent(name, []byte(in.Content)); err != nil {
			return nil, writeSharedFileOutput{}, toolError(err)
		}
		base := strings.ToLower(strings.Trim(strings.TrimSpace(in.BaseSHA256), `"`))
		h := http.Header{"Content-Type": {"text/plain; charset=utf-8"}}
		if base == "" {
			h.Set("If-None-Match", "*")
		} else {
			if err := pumasi.CheckIfMatch(base); err != nil || base == pumasi.IfMatchAny {
				return nil, writeSharedFileOutput{}, errors.New("invalid_request: base_sha256 must be the 64-hex sha256 of the content you edited, or empty for a new file")
			}
			h.Set("If-Match", strconv.Quote(base))
		}
		r, err := room(ctx)
		if err != nil {
			return nil, writeSharedFileOutput{}, apiToolError(err)
		}
		resp, err := c.do(ctx, "POST", roomPath(r, "files")+"?name="+url.QueryEscape(name), strings.NewReader(in.Content), h)
		var ae *apiError
		if errors.As(err, &ae) && ae.Code == pumasi.EPreconditionFailed {
			return nil, writeSharedFileOutput{}, conflict(ctx, c, r, name, base)
		}
		if err != nil {
			return nil, writeSharedFileOutput{}, apiToolError(err)
		}
		defer resp.Body.Close()
		var f struct {
			pumasi.File
			Changed bool `json:"changed"`
		}
		if err := decodeBody(resp.Body, &f); err != nil {
			return nil, writeSharedFileOutput{}, errors.New("internal: the server's answer could not be read")
		}
		out := writeSharedFileOutput{Name: f.Name, SHA256: f.SHA256, Version: f.Version, Changed: f.Changed}
		text := fmt.Sprintf("wrote %s: version %d, sha256 %s; every agent in room %s gets it. Use this sha256 as base_sha256 for your next edit.", f.Name, f.Version, f.SHA256, r)
		if !f.Changed {
			text = fmt.Sprintf("%s already holds this content (version %d, sha256 %s); nothing changed.", f.Name, f.Version, f.SHA256)
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, out, nil
	})
	return nil
}

// conflict reads the file's current state for a refused write and says
// what to do with it.
func conflict(ctx context.Context, c *client, room, name, base string) error {
	resp, err := c.do(ctx, "GET", roomPath(room, "files", name), nil, nil)
	if err != nil {
		var ae *apiError
		if errors.As(err, &ae) && ae.Code == pumasi.ENotFound {
			return fmt.Errorf("conflict: %s no longer exists (your base_sha256 %s is stale); write it with an empty base_sha256 to create it again", name, short(base))
		}
		return fmt.Errorf("conflict: %s changed since you read it; read it again before writing", name)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, pumasi.MaxFileSize+1))
	cur := strings.Trim(resp.Header.Get("ETag"), `"`)
	if base == "" {
		return fmt.Errorf("conflict: %s already exists; its current sha256 is %s. Edit that content and write it with base_sha256 %s.\ncurrent content:\n%s", name, cur, cur, clip(body))
	}
	return fmt.Errorf("conflict: %s changed since your base %s; its current sha256 is %s. Nothing was written: redo your edit on the current content and write it with base_sha256 %s.\ncurrent content:\n%s", name, short(base), cur, cur, clip(body))
}

func clip(b []byte) string {
	if len(b) > maxConflictContent {
		return string(b[:maxConflictContent]) + "\n[... cut; read the whole file with read_shared_file once your copy has synced]"
	}
	return string(b)
}

// apiToolError is toolError for the server's answers: its code and message.
func apiToolError(err error) error {
	var ae *apiError
	if errors.As(err, &ae) {
		return fmt.Errorf("%s: %s", ae.Code, ae.Message)
	}
	if pumasi.ErrorCode(err) != pumasi.EInternal {
		return toolError(err)
	}
	return errors.New("internal: the pumasi server could not be reached")
}

func containsString(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
