package localdev

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"

	"pumasi"
	"pumasi/adapters/push"
	"pumasi/functions"
)

// maxConnectionMessage is API Gateway's cap on one @connections message.
const maxConnectionMessage = 128 << 10

// ConnectionsHandler serves API Gateway's management endpoint over the hub's
// live sockets: POST /@connections/{id} sends the body as one text message,
// DELETE closes the connection, GET describes it; an unknown id answers 410
// GoneException, as API Gateway does. Every other path goes to next.
//
// API Gateway demands a SigV4 signature with execute-api:ManageConnections;
// localdev demands an admin token instead (403 ForbiddenException without
// one), since whoever may post here may put words in a daemon's mouth.
func ConnectionsHandler(hub *push.Hub, secret []byte, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rest, ok := strings.CutPrefix(r.URL.EscapedPath(), "/@connections/")
		if !ok {
			next.ServeHTTP(w, r)
			return
		}
		tok, _ := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		if p, err := pumasi.ParseToken(secret, strings.TrimSpace(tok), time.Now()); err != nil || !p.Admin {
			gatewayError(w, http.StatusForbidden, "ForbiddenException", "Forbidden")
			return
		}
		id, err := url.PathUnescape(rest)
		if err != nil || strings.Contains(rest, "/") || !pumasi.ValidConnectionID(id) {
			gatewayError(w, http.StatusBadRequest, "BadRequestException", "Invalid connectionId")
			return
		}
		machine, live := hub.Lookup(id)
		switch r.Method {
		case http.MethodPost:
			body, err := io.ReadAll(io.LimitReader(r.Body, maxConnectionMessage+1))
			if err != nil {
				gatewayError(w, http.StatusBadRequest, "BadRequestException", "could not read the body")
				return
			}
			if len(body) > maxConnectionMessage {
				gatewayError(w, http.StatusRequestEntityTooLarge, "PayloadTooLargeException", "Message too long")
				return
			}
			if err := hub.PostToConnection(r.Context(), id, body); err != nil {
				gone(w)
				return
			}
			w.WriteHeader(http.StatusOK)
		case http.MethodDelete:
			if err := hub.DeleteConnection(r.Context(), id); err != nil {
				gone(w)
				return
			}
			w.WriteHeader(http.StatusNoContent)
		case http.MethodGet:
			if !live {
				gone(w)
				return
			}
			w.Header().Set("Content-Type", "application/json")
			_ = json.NewEncoder(w).Encode(map[string]any{"connectionId": id, "machineId": machine})
		default:
			w.Header().Set("Allow", "GET, POST, DELETE")
			gatewayError(w, http.StatusMethodNotAllowed, "BadRequestException", "method not allowed")
		}
	})
}

func gone(w http.ResponseWriter) {
	gatewayError(w, http.StatusGone, "GoneException", "connection is gone")
}

// gatewayError answers in API Gateway's error shape, which the SDK decodes
// by the X-Amzn-ErrorType header.
func gatewayError(w http.ResponseWriter, status int, kind, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Amzn-ErrorType", kind)
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]string{"message": msg})
}

// GatewayPusher is the Pusher of a localdev that pushes the way AWS does:
// through the @connections endpoint at base, to the connections conns
// lists (the store's registry, filled by RecordConnections), authenticated
// with an admin token where AWS would sign.
func GatewayPusher(ctx context.Context, base string, conns push.Connections, adminToken string, log *slog.Logger) (functions.Pusher, error) {
	client := &http.Client{Transport: bearer{token: adminToken, next: http.DefaultTransport}, Timeout: 30 * time.Second}
	g, err := push.NewGateway(ctx, base, conns, push.GatewayOptions{
		Region:      "us-east-1",
		Credentials: aws.AnonymousCredentials{},
		HTTPClient:  client,
		Log:         log,
	})
	if err != nil {
		return nil, errors.Join(errors.New("localdev gateway push"), err)
	}
	return g, nil
}

// RecordConnections makes hub keep store's connection registry the way
// API Gateway's $connect and $disconnect functions do: an id is recorded
// before its upgrade is answered and forgotten when it closes, so the
// registry, not the hub, decides where GatewayPusher posts.
func RecordConnections(hub *push.Hub, store pumasi.ConnectionStore, log *slog.Logger) {
	hub.OnConnect = func(ctx context.Context, machine, id string) error {
		if err := store.SaveConnection(ctx, machine, id); err != nil {
			return fmt.Errorf("record connection %s: %w", id, err)
		}
		return nil
	}
	hub.OnDisconnect = func(ctx context.Context, machine, id string) {
		if _, err := store.DropConnection(ctx, id); err != nil && pumasi.ErrorCode(err) != pumasi.ENotFound {
			log.Warn("forget connection", "machine", machine, "conn", id, "err", err)
		}
	}
}

// bearer adds an Authorization header to every request it carries.
type bearer struct {
	token string
	next  http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.next.RoundTrip(r)
}
