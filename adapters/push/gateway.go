package push

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"

	"github.com/aws/aws-sdk-go-v2/aws"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/apigatewaymanagementapi"
	"github.com/aws/aws-sdk-go-v2/service/apigatewaymanagementapi/types"

	"pumasi"
)

// Connections is what Gateway needs of a connection registry: the ids to
// push to and a way to forget the ones the gateway calls gone.
// pumasi.ConnectionStore satisfies it; so does localdev's view of its hub.
type Connections interface {
	MachineConnections(ctx context.Context, machine string) ([]pumasi.Connection, error)
	DropConnection(ctx context.Context, id string) (pumasi.Connection, error)
}

// GatewayOptions configures NewGateway. Zero values mean the defaults.
type GatewayOptions struct {
	// Region signs the requests; empty takes the AWS chain's (AWS_REGION in
	// Lambda), else us-east-1.
	Region string
	// Credentials overrides the AWS credential chain; localdev, which checks
	// no signatures, passes aws.AnonymousCredentials{}.
	Credentials aws.CredentialsProvider
	// HTTPClient overrides the SDK's HTTP client.
	HTTPClient *http.Client
	Log        *slog.Logger
}

// Gateway pushes frames through an API Gateway management API (`POST
// /@connections/{id}`), to every connection a registry lists for the
// machine. localdev serves the same endpoint, so this code path runs offline
// too.
type Gateway struct {
	client *apigatewaymanagementapi.Client
	conns  Connections
	log    *slog.Logger
}

// NewGateway returns a Gateway posting to endpoint, the WebSocket API's
// stage URL (https://{api}.execute-api.{region}.amazonaws.com/{stage}; in
// localdev its own base URL), for the connections conns lists.
func NewGateway(ctx context.Context, endpoint string, conns Connections, opts GatewayOptions) (*Gateway, error) {
	if endpoint == "" {
		return nil, errors.New("new gateway: no endpoint (PUMASI_GATEWAY_ENDPOINT)")
	}
	var loadOpts []func(*config.LoadOptions) error
	if opts.Region != "" {
		loadOpts = append(loadOpts, config.WithRegion(opts.Region))
	}
	if opts.Credentials != nil {
		loadOpts = append(loadOpts, config.WithCredentialsProvider(opts.Credentials))
	}
	cfg, err := config.LoadDefaultConfig(ctx, loadOpts...)
	if err != nil {
		return nil, fmt.Errorf("new gateway: load aws config: %w", err)
	}
	if cfg.Region == "" {
		cfg.Region = "us-east-1"
	}
	client := apigatewaymanagementapi.NewFromConfig(cfg, func(o *apigatewaymanagementapi.Options) {
		o.BaseEndpoint = aws.String(endpoint)
		if opts.HTTPClient != nil {
			o.HTTPClient = opts.HTTPClient
		}
	})
	log := opts.Log
	if log == nil {
		log = slog.Default()
	}
	return &Gateway{client: client, conns: conns, log: log}, nil
}

// Push posts each frame as one message to every recorded connection of
// machine. A frame whose encoding would pass the gateway's 128 KB message
// cap goes without its content; the daemon fetches it. A connection the
// gateway answers 410 Gone for is dropped from the registry and skipped.
// Other failures are returned together after every connection was tried.
func (g *Gateway) Push(ctx context.Context, machine string, frames []pumasi.Frame) error {
	msgs := make([][]byte, 0, len(frames))
	for _, f := range frames {
		b, err := EncodeFrame(f)
		if err != nil {
			return err
		}
		msgs = append(msgs, b)
	}
	conns, err := g.conns.MachineConnections(ctx, machine)
	if err != nil {
		return fmt.Errorf("push to %s: %w", machine, err)
	}
	var errs []error
	for _, c := range conns {
		for _, m := range msgs {
			err := g.post(ctx, c.ID, m)
			if err == nil {
				continue
			}
			if errors.Is(err, ErrGone) {
				g.log.Info("push: connection gone, dropping it", "machine", machine, "conn", c.ID)
				if _, derr := g.conns.DropConnection(ctx, c.ID); derr != nil && pumasi.ErrorCode(derr) != pumasi.ENotFound {
					errs = append(errs, fmt.Errorf("drop connection %s: %w", c.ID, derr))
				}
			} else {
				errs = append(errs, fmt.Errorf("post to connection %s: %w", c.ID, err))
			}
			break
		}
	}
	return errors.Join(errs...)
}

// post sends one message. Returns ErrGone for a connection that is gone.
func (g *Gateway) post(ctx context.Context, id string, msg []byte) error {
	_, err := g.client.PostToConnection(ctx, &apigatewaymanagementapi.PostToConnectionInput{
		ConnectionId: aws.String(id),
		Data:         msg,
	})
	if err == nil {
		return nil
	}
	var gone *types.GoneException
	var re *awshttp.ResponseError
	if errors.As(err, &gone) || (errors.As(err, &re) && re.HTTPStatusCode() == http.StatusGone) {
		return ErrGone
	}
	return err
}

// EncodeFrame encodes f as the JSON text message a daemon receives, without
// its content when the message would pass pumasi.MaxInlineFrame.
func EncodeFrame(f pumasi.Frame) ([]byte, error) {
	b, err := json.Marshal(f)
	if err != nil {
		return nil, fmt.Errorf("encode frame: %w", err)
	}
	if len(b) > pumasi.MaxInlineFrame && f.Content != nil {
		f.Content = nil
		if b, err = json.Marshal(f); err != nil {
			return nil, fmt.Errorf("encode frame: %w", err)
		}
	}
	return b, nil
}
