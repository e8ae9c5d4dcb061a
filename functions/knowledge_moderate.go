package functions

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"pumasi"
	"pumasi/knowledge"
)

// The moderation routes (DESIGN.md §6, Lifecycle), served in AWS by the
// knowledge-moderate function: anyone who may write knowledge flags;
// restoring, redacting and the moderation view are an admin's.
func init() {
	addRoute("POST", "/knowledge/{id}/flag", "knowledge-moderate", moderated(false, flagKnowledge))
	addRoute("POST", "/knowledge/{id}/restore", "knowledge-moderate", moderated(true, restoreKnowledge))
	addRoute("DELETE", "/knowledge/{id}", "knowledge-moderate", moderated(true, redactKnowledge))
	addRoute("GET", "/knowledge/moderation", "knowledge-moderate", moderated(true, moderationKnowledge))
	addRoute("GET", "/knowledge/{id}/history", "knowledge-moderate", moderated(false, historyKnowledge))
}

// moderator is what the moderation routes need of the knowledge store
// (knowledge.Engine has it).
type moderator interface {
	Flag(ctx context.Context, in knowledge.FlagInput) (knowledge.Entry, bool, error)
	Restore(ctx context.Context, id, by string) (knowledge.Entry, error)
	Redact(ctx context.Context, id, by, reason string) error
	Moderation(ctx context.Context, q knowledge.ModerationQuery) (knowledge.ModerationView, error)
	History(ctx context.Context, id string) (knowledge.History, error)
}

var _ moderator = (*knowledge.Engine)(nil)

// moderation returns the store's moderation side. Returns an internal
// error when the store has none or none is configured.
func (a *API) moderation() (moderator, error) {
	if err := a.knowledgeReady(false); err != nil {
		return nil, err
	}
	m, ok := a.Knowledge.(moderator)
	if !ok {
		return nil, fmt.Errorf("knowledge store %T does not moderate", a.Knowledge)
	}
	return m, nil
}

// authAdmin admits an admin token only. Returns unauthorized or forbidden.
func (a *API) authAdmin(r *http.Request) (*pumasi.Principal, error) {
	p, err := a.authenticate(r)
	if err != nil {
		return nil, err
	}
	if !p.Admin {
		return nil, pumasi.Errorf(pumasi.EForbidden, "only an admin token may do this")
	}
	return p, nil
}

// isAdmin reports whether the request carries a valid admin token.
func (a *API) isAdmin(r *http.Request) bool {
	if _, ok := bearerToken(r.Header.Get("Authorization")); !ok || len(a.Secret) == 0 {
		return false
	}
	p, err := a.authenticate(r)
	return err == nil && p.Admin
}

// adminName is who an admin's decision is recorded as: the token's
// subject, else "admin".
func adminName(p *pumasi.Principal) string {
	if p != nil && knowledge.ValidHandle(p.Subject) {
		return p.Subject
	}
	return "admin"
}

// FlagRequest is the body of POST /knowledge/{id}/flag.
type FlagRequest struct {
	Reason string `json:"reason"`
	Note   string `json:"note,omitempty"`
}

// FlagData is the answer to a flag: the entry and whether this flag
// counted (once per contributor).
type FlagData struct {
	Success bool            `json:"success"`
	Data    knowledge.Entry `json:"data"`
	Counted bool            `json:"counted"`
}

// modHandler is a moderation route's own work, given the store's
// moderation side and, on an admin route, the admin. An error it returns
// is the answer.
type modHandler func(a *API, w http.ResponseWriter, r *http.Request, p params, m moderator, admin *pumasi.Principal) error

// moderated wraps h as a route: on an admin route it admits an admin token
// only, then it finds the store's moderation side, and it answers any
// error of theirs or h's.
func moderated(adminOnly bool, h modHandler) func(a *API, w http.ResponseWriter, r *http.Request, p params) {
	return func(a *API, w http.ResponseWriter, r *http.Request, p params) {
		var admin *pumasi.Principal
		err := func() error {
			if adminOnly {
				var err error
				if admin, err = a.authAdmin(r); err != nil {
					return err
				}
			}
			m, err := a.moderation()
			if err != nil {
				return err
			}
			return h(a, w, r, p, m, admin)
		}()
		if err != nil {
			a.fail(w, r, err)
		}
	}
}

// flagKnowledge answers POST /knowledge/{id}/flag: the writer (as
// contribute names it) flags an entry once; an admin's flag quarantines it
// at once.
func flagKnowledge(a *API, w http.ResponseWriter, r *http.Request, p params, m moderator, _ *pumasi.Principal) error {
	agent, err := a.knowledgeWriter(w, r, false)
	if err != nil {
		return err
	}
	var req FlagRequest
	if err := decodeJSON(r, &req); err != nil {
		return err
	}
	e, counted, err := m.Flag(r.Context(), knowledge.FlagInput{ID: p["id"], Agent: agent,
		Reason: strings.TrimSpace(req.Reason), Note: strings.TrimSpace(req.Note), Admin: a.isAdmin(r)})
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, FlagData{Success: true, Data: e, Counted: counted})
	return nil
}

// restoreKnowledge answers POST /knowledge/{id}/restore (admin): the
// entry's quarantine is lifted.
func restoreKnowledge(_ *API, w http.ResponseWriter, r *http.Request, p params, m moderator, admin *pumasi.Principal) error {
	e, err := m.Restore(r.Context(), p["id"], adminName(admin))
	if err != nil {
		return err
	}
	writeHive(w, http.StatusOK, e)
	return nil
}

// redactKnowledge answers DELETE /knowledge/{id}?reason= (admin): the
// entry's text, tags and vectors are removed everywhere, a tombstone
// stays, and the id answers 410 from then on. Idempotent: 204 again.
func redactKnowledge(_ *API, w http.ResponseWriter, r *http.Request, p params, m moderator, admin *pumasi.Principal) error {
	if err := m.Redact(r.Context(), p["id"], adminName(admin), strings.TrimSpace(r.URL.Query().Get("reason"))); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// moderationKnowledge answers GET /knowledge/moderation?hive=&limit=&list=&cursor=
// (admin): flagged and quarantined entries, and merges an unmerge can
// undo, a page of each (or of the one list named), with the cursors of
// the next pages.
func moderationKnowledge(_ *API, w http.ResponseWriter, r *http.Request, _ params, m moderator, _ *pumasi.Principal) error {
	qs := r.URL.Query()
	q := knowledge.ModerationQuery{Hive: strings.TrimSpace(qs.Get("hive")), List: strings.TrimSpace(qs.Get("list")),
		Cursor: strings.TrimSpace(qs.Get("cursor")), Limit: knowledge.MaxQueryLimit}
	if q.Hive != "" {
		if err := pumasi.CheckID("hive", q.Hive); err != nil {
			return err
		}
	}
	if s := strings.TrimSpace(qs.Get("limit")); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			return pumasi.Errorf(pumasi.EInvalidRequest, "limit must be a positive integer")
		}
		q.Limit = min(n, knowledge.MaxQueryLimit)
	}
	v, err := m.Moderation(r.Context(), q)
	if err != nil {
		return err
	}
	writeHive(w, http.StatusOK, v)
	return nil
}

// historyKnowledge answers GET /knowledge/{id}/history (public): the
// entry's lifecycle events, oldest first; a redacted id lists its
// redaction.
func historyKnowledge(_ *API, w http.ResponseWriter, r *http.Request, p params, m moderator, _ *pumasi.Principal) error {
	h, err := m.History(r.Context(), p["id"])
	if err != nil {
		return err
	}
	writeHive(w, http.StatusOK, h)
	return nil
}

// includeQuarantined reads a query's ?include=: "quarantined" keeps
// quarantined entries, for an admin only. Returns invalid_request for
// another value, unauthorized or forbidden for a caller who is not an
// admin.
func (a *API) includeQuarantined(r *http.Request) (bool, error) {
	switch v := strings.TrimSpace(r.URL.Query().Get("include")); v {
	case "":
		return false, nil
	case "quarantined":
		if _, err := a.authAdmin(r); err != nil {
			return false, err
		}
		return true, nil
	default:
		return false, pumasi.Errorf(pumasi.EInvalidRequest, "include must be quarantined")
	}
}
