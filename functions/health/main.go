// Command health is the health Lambda function (provided.al2023, Handler: bootstrap).
// It only reads its configuration and wires; see functions/lambdaapp.
package main

import (
	"os"

	"pumasi/functions/lambdaapp"
)

func main() {
	cfg, err := lambdaapp.LoadConfig("health", os.Getenv)
	if err != nil {
		lambdaapp.Fatal(err)
	}
	lambdaapp.Start(cfg)
}
