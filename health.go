package pumasi

// Readiness checks (GET /healthz). Every deployment reports the same three,
// so a probe reads one shape wherever it runs; a backend without a part
// (no local home in AWS) reports that check as not applicable and passing.
const (
	// CheckDurable: files can be written durably (the local store's WAL
	// syncs have not failed; the S3 bucket answers).
	CheckDurable = "durable"
	// CheckKnowledge: the knowledge backend answers.
	CheckKnowledge = "knowledge"
	// CheckDisk: the home's free space is above its floor.
	CheckDisk = "disk"
)

// HealthChecks lists the checks every /healthz answer names, in order.
var HealthChecks = []string{CheckDurable, CheckKnowledge, CheckDisk}

// HealthCheck is one check's result. Message says why it fails (or what was
// checked); FreeBytes and FloorBytes are the disk check's figures.
type HealthCheck struct {
	Name       string `json:"-"`
	OK         bool   `json:"ok"`
	Message    string `json:"message,omitempty"`
	FreeBytes  int64  `json:"free_bytes,omitempty"`
	FloorBytes int64  `json:"floor_bytes,omitempty"`
}

// DiskUsage is what a local home holds, by part, in bytes.
type DiskUsage struct {
	Database, WAL, Blobs, Index int64
	// Free is the space left on the home's filesystem; Floor the free
	// space the store keeps (0: none).
	Free, Floor int64
}
