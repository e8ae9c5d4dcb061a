// Command echo is a Lambda function that returns its event, for the
// emulator's own tests.
package main

import (
	"context"
	"encoding/json"

	"github.com/aws/aws-lambda-go/lambda"
)

func main() {
	lambda.Start(func(ctx context.Context, ev json.RawMessage) (json.RawMessage, error) { return ev, nil })
}
