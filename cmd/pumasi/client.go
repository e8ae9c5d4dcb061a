package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/spf13/pflag"
)

// defaultServer is localdev's address.
const defaultServer = "http://127.0.0.1:8787"

func envOr(env *cliEnv, key, def string) string {
	if v := env.getenv(key); v != "" {
		return v
	}
	return def
}

// homeDir resolves the data folder: flag, else PUMASI_HOME, else ~/.pumasi.
func homeDir(env *cliEnv, flagValue string) (string, error) {
	if flagValue != "" {
		return flagValue, nil
	}
	if v := env.getenv("PUMASI_HOME"); v != "" {
		return v, nil
	}
	h, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("find home folder: %w (set PUMASI_HOME)", err)
	}
	return filepath.Join(h, ".pumasi"), nil
}

// client talks to a pumasi server on behalf of one CLI command.
type client struct {
	server string
	token  string
	// tokenFrom says where token came from (--token, PUMASI_TOKEN or the
	// admin.token file), for the message of a refused token.
	tokenFrom string
	http      *http.Client
}

// clientFlags adds --server, --token and --home to fs and returns a
// constructor to call after parsing.
func clientFlags(env *cliEnv, fs *pflag.FlagSet) func() (*client, error) {
	server := fs.String("server", envOr(env, "PUMASI_SERVER", defaultServer), "server URL (env PUMASI_SERVER)")
	token := fs.String("token", "", "bearer token (env PUMASI_TOKEN, else <home>/admin.token)")
	home := fs.String("home", "", "data folder holding admin.token (env PUMASI_HOME, default ~/.pumasi)")
	return func() (*client, error) {
		tok, from := *token, "--token"
		if tok == "" {
			tok, from = env.getenv("PUMASI_TOKEN"), "PUMASI_TOKEN"
		}
		if tok == "" {
			h, err := homeDir(env, *home)
			if err != nil {
				return nil, err
			}
			from = filepath.Join(h, "admin.token")
			b, err := os.ReadFile(from)
			if err != nil {
				return nil, fmt.Errorf("no token: pass --token, set PUMASI_TOKEN, or run localdev once to create %s", from)
			}
			tok = strings.TrimSpace(string(b))
		}
		return &client{server: strings.TrimRight(*server, "/"), token: tok, tokenFrom: from, http: &http.Client{Timeout: time.Minute}}, nil
	}
}

// reachError explains a request that never got an answer: which server
// was tried, and how to start one when nothing listens there.
func reachError(server string, err error) error {
	if errors.Is(err, context.Canceled) {
		return err
	}
	if errors.Is(err, syscall.ECONNREFUSED) {
		return fmt.Errorf("no pumasi server at %s (connection refused): start one with `make localdev` or `pumasi localdev`, or point --server (env PUMASI_SERVER) at yours", server)
	}
	return fmt.Errorf("cannot reach the pumasi server at %s: %w (check --server or PUMASI_SERVER)", server, err)
}

// authHint adds to a 401 where the token came from: a token is good only
// on the server whose secret signed it.
func (c *client) authHint(err error) error {
	var ae *apiError
	if !errors.As(err, &ae) || ae.Status != http.StatusUnauthorized {
		return err
	}
	return fmt.Errorf("%w (the token came from %s and was sent to %s; a token works only on the server whose secret signed it: check --server, --home or PUMASI_TOKEN, or mint one there with pumasi token)", err, c.tokenFrom, c.server)
}

// apiError is the server's error body.
type apiError struct {
	Status  int
	Code    string `json:"code"`
	Message string `json:"message"`
}

func (e *apiError) Error() string {
	return fmt.Sprintf("%s (%d): %s", e.Code, e.Status, e.Message)
}

// do sends a request and returns the response for 2xx/304; other statuses
// become *apiError.
func (c *client) do(ctx context.Context, method, path string, body io.Reader, header http.Header) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, method, c.server+path, body)
	if err != nil {
		return nil, err
	}
	for k, v := range header {
		req.Header[k] = v
	}
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, reachError(c.server, err)
	}
	if resp.StatusCode < 300 || resp.StatusCode == http.StatusNotModified {
		return resp, nil
	}
	defer resp.Body.Close()
	var eb struct {
		Error apiError `json:"error"`
	}
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if json.Unmarshal(b, &eb) != nil || eb.Error.Code == "" {
		return nil, c.authHint(&apiError{Status: resp.StatusCode, Code: "http", Message: strings.TrimSpace(string(b))})
	}
	eb.Error.Status = resp.StatusCode
	return nil, c.authHint(&eb.Error)
}

// doJSON sends v as JSON (if non-nil) and decodes the answer into out (if non-nil).
func (c *client) doJSON(ctx context.Context, method, path string, v, out any) error {
	var body io.Reader
	h := http.Header{}
	if v != nil {
		b, err := json.Marshal(v)
		if err != nil {
			return err
		}
		body = strings.NewReader(string(b))
		h.Set("Content-Type", "application/json")
	}
	resp, err := c.do(ctx, method, path, body, h)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if out == nil {
		return nil
	}
	if err := json.NewDecoder(resp.Body).Decode(out); err != nil && !errors.Is(err, io.EOF) {
		return fmt.Errorf("decode answer: %w", err)
	}
	return nil
}

func roomPath(room string, rest ...string) string {
	p := "/rooms/" + url.PathEscape(room)
	for _, r := range rest {
		p += "/" + url.PathEscape(r)
	}
	return p
}

// newTable is the writer of every table the CLI prints (columns two
// spaces apart); --json prints the same answer through printJSON.
func newTable(w io.Writer) *tabwriter.Writer { return tabwriter.NewWriter(w, 0, 4, 2, ' ', 0) }

// printJSON writes v indented.
func printJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}
