package cloud

import (
	"fmt"

	"pumasi"
	"pumasi/adapters/postgres"
	"pumasi/adapters/s3"
)

// DescribeS3 says where an s3:// PUMASI_STORAGE keeps room files (bucket,
// prefix, endpoint). The error names the variable.
func DescribeS3(url string) (pumasi.StorageWhere, error) {
	w, err := s3.Describe(url)
	if err != nil {
		return pumasi.StorageWhere{}, fmt.Errorf("PUMASI_STORAGE: %w", err)
	}
	return w, nil
}

// DescribePostgres says where a postgres:// PUMASI_KNOWLEDGE keeps knowledge
// (host, database, the URL with its password masked), without connecting.
// The error names the variable and never the password.
func DescribePostgres(url string) (pumasi.KnowledgeWhere, error) {
	w, err := postgres.Describe(url)
	if err != nil {
		return pumasi.KnowledgeWhere{}, fmt.Errorf("PUMASI_KNOWLEDGE: %w", err)
	}
	return w, nil
}
