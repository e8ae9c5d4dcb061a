package main

import (
	"context"

	"github.com/jackc/pgx/v5/pgxpool"

	"pumasi/adapters/postgres"
	"pumasi/internal/testpeer"
)

// startBucket starts a MinIO server on loopback with one fresh bucket; the
// caller stops the server.
func startBucket(ctx context.Context) (*testpeer.MinIOServer, string, error) {
	srv, err := testpeer.StartMinIO()
	if err != nil {
		return nil, "", err
	}
	bucket, err := srv.CreateBucket(ctx)
	if err != nil {
		srv.Stop()
		return nil, "", err
	}
	return srv, bucket, nil
}

// openMigrated opens a pool on the database at url with the driver's
// defaults and applies the migrations it lacks; the caller closes it.
func openMigrated(ctx context.Context, url string) (*pgxpool.Pool, error) {
	pool, err := postgres.OpenWith(ctx, url, postgres.Options{})
	if err != nil {
		return nil, err
	}
	if err := postgres.Migrate(ctx, pool); err != nil {
		pool.Close()
		return nil, err
	}
	return pool, nil
}
