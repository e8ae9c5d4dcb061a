package gate

import "regexp"

// The gate's word lists, kept apart from the logic so they can be extended
// without touching it. Add a technology when a precise finding about it is
// refused for lack of a "named technology".

// knownTech are technologies whose mention makes a statement concrete.
// Entries with a capital letter match as written (so "Go" and "React" count
// but the verbs "go" and "react" do not); lowercase entries match in any
// case.
var knownTech = []string{
	// Languages and runtimes.
	"Go", "golang", "python", "cpython", "typescript", "javascript", "node.js", "nodejs", "Node", "deno", "Bun",
	"rust", "java", "jvm", "kotlin", "Swift", "ruby", "php", "c++", "c#", ".net", "scala", "elixir", "erlang",
	"haskell", "lua", "perl", "bash", "zsh", "posix", "wasm", "webassembly", "sql", "html", "CSS", "css",
	"gcc", "clang", "llvm", "msvc",
	// Databases and data.
	"postgres", "postgresql", "pgvector", "pgbouncer", "pgx", "libpq", "mysql", "mariadb", "sqlite", "sqlite3",
	"redis", "valkey", "memcached", "mongodb", "dynamodb", "cassandra", "elasticsearch", "opensearch", "kafka",
	"rabbitmq", "NATS", "sqs", "sns", "clickhouse", "bigquery", "snowflake", "supabase", "firebase", "prisma",
	"drizzle", "sqlalchemy", "golang-migrate", "flyway", "liquibase", "modernc", "duckdb", "parquet",
	// Frameworks and libraries.
	"django", "flask", "fastapi", "Rails", "laravel", "Spring", "spring boot", "Express", "express.js",
	"next.js", "nextjs", "nuxt", "React", "react-dom", "vue", "vue.js", "svelte", "angular", "vite", "webpack", "esbuild",
	"rollup", "turbopack", "babel", "tsc", "zod", "redux", "jquery", "tailwind", "bootstrap", "htmx", "node-fetch",
	"axios", "lodash", "ioredis", "pandas", "numpy", "scipy", "scikit-learn", "sklearn", "pydantic",
	"celery", "gunicorn", "uvicorn", "asyncio", "tokio", "serde", "clippy", "anyhow", "thiserror", "errgroup", "gorilla", "grpc-go",
	"golang-jwt", "jwt-go", "Bolt", "stripe.js", "libphonenumber", "jasypt", "delve",
	// Data, ML ops, mobile, firmware and game engines.
	"spark", "pyspark", "airflow", "hadoop", "hdfs", "flink", "trino", "presto", "delta lake", "iceberg",
	"kubeflow", "sagemaker", "bentoml", "xcode", "cocoapods", "fastlane", "android studio", "flutter",
	"react native", "expo", "esp32", "esp-idf", "arduino", "stm32", "freertos", "zephyr", "u-boot", "yocto",
	"Unity", "unreal engine", "Godot", "parcel", "swc", "rspack", "bind9", "unbound", "dnssec", "rpki",
	"splunk", "falco", "wazuh", "suricata", "osquery", "yara", "trivy", "semgrep", "hashicorp vault",
	"certbot", "letsencrypt", "let's encrypt", "chrony", "wireguard", "hikaricp", "jpa", "hibernate",
	"pgbouncer", "pg_repack", "pg_dump", "mysqldump", "jdbc", "paypal", "pix", "3ds", "3d secure",
	"NACHA", "App Store", "Play Console", "Google Play", "TestFlight",
	// AI coding tools.
	"Cursor", "claude code", "Codex", "Copilot", "aider", "windsurf", "MCP", "model context protocol",
	// Infrastructure and cloud.
	"docker", "dockerfile", "docker compose", "podman", "kubernetes", "k8s", "kubectl", "kubelet",
	"helm", "kustomize", "minikube", "eks", "gke", "aks", "terraform", "opentofu", "ansible", "pulumi",
	"nginx", "caddy", "envoy", "haproxy", "traefik", "istio", "linkerd", "coredns", "aws", "lambda", "s3",
	"ec2", "ecs", "ecr", "fargate", "rds", "aurora", "iam", "sts", "imds", "imdsv2", "cloudfront", "cloudwatch",
	"route 53", "route53", "api gateway", "alb", "elb", "nlb", "vpc", "step functions", "eventbridge", "kms",
	"gcp", "google cloud", "cloud run", "gcs", "azure", "azurite", "app service", "service bus", "vercel",
	"netlify", "cloudflare", "fly.io", "heroku", "minio", "localstack", "distroless", "Alpine", "Debian",
	"ubuntu", "musl", "glibc", "systemd", "cron", "crontab", "linux", "macos", "windows", "wsl", "ios", "android",
	// Tooling and CI.
	"git", "github", "github actions", "actions/checkout", "actions/cache", "setup-go", "gitlab", "gitlab ci",
	"jenkins", "circleci", "buildkite", "npm", "pnpm", "yarn", "pip", "pipx", "uv", "poetry", "venv", "conda",
	"cargo", "rustup", "go mod", "go.mod", "gradle", "maven", "homebrew", "apt", "Makefile", "bazel", "gofmt",
	"go vet", "golangci-lint", "eslint", "prettier", "ruff", "mypy", "pytest", "xdist", "jest", "vitest",
	"mocha", "playwright", "cypress", "selenium", "storybook", "sentry", "datadog", "prometheus", "grafana",
	"opentelemetry", "otel", "jaeger", "pagerduty", "alertmanager", "vscode", "neovim", "tmux", "jq",
	"curl", "wget", "openssl", "ssh", "ssh-agent", "gpg", "sed", "awk", "grep", "xargs", "tar", "rsync",
	"excel", "csv", "jupyter", "gh",
	// Protocols, formats and standards.
	"http", "http/1.1", "http/2", "http/3", "https", "tls", "ssl", "sni", "mtls", "tcp", "udp", "IP", "ipv4",
	"ipv6", "dns", "quic", "websocket", "websockets", "grpc", "graphql", "REST", "oauth", "oauth2", "oidc",
	"saml", "jwt", "jws", "cors", "csp", "csrf", "ssrf", "xss", "hsts", "utf-8", "utf8", "utf8mb4", "utf8mb3",
	"unicode", "nfc", "nfd", "json", "yaml", "toml", "protobuf", "sha-256", "sha256", "hmac", "bcrypt",
	"argon2", "argon2id", "scrypt", "pbkdf2", "aes", "rsa", "ed25519", "x509", "x.509", "pem", "pkcs#1",
	"pkix", "ACME", "sepa", "pci dss", "ieee 754", "cfs", "cgroup", "cgroups", "ebpf", "mtu", "pmtu", "mss",
	"icmp", "NAT", "smtp", "imap", "ftp", "sftp", "cidr", "bgp", "ntp", "UTC", "DST", "cron expression",
	// ML tooling.
	"pytorch", "torch", "tensorflow", "keras", "jax", "cuda", "cudnn", "onnx", "ollama", "vllm", "llama",
	"huggingface", "hugging face", "transformers", "tokenizer", "tokenizers", "safetensors", "gguf",
	"openai", "anthropic", "claude", "gemini", "gpt-4", "gpt-4o", "langchain", "llamaindex", "mlflow",
	"wandb", "triton", "tensorrt", "bf16", "fp16", "int8", "dataloader", "v100", "a100", "h100", "t4",
	// Browsers and front end.
	"chrome", "chromium", "safari", "firefox", "webkit", "devtools", "react devtools", "DOM", "jsx", "tsx",
	"tsconfig", "tsconfig.json", "package.json", "package-lock.json", "useeffect", "usememo", "usecallback",
	"strictmode", "z-index", "min-width", "max-width", "overflow: hidden", "position: sticky", "flexbox", "display:flex",
	"display: flex", "grid-template-columns", "text-overflow", "stacking context", "transform", "opacity",
	"viewport", "100vh", "dvh", "hydration", "ssr", "service worker", "localstorage", "indexeddb",
	// Services and products engineers name.
	"stripe", "braintree", "adyen", "twilio", "slack", "discord", "okta", "auth0", "sendgrid", "mailpit",
	"firebase auth", "youtube data api", "google maps", "Kakao", "naver", "Toss", "tosspayments",
	"Wise", "gusto", "kubecon", "ghcr", "docker hub", "npmjs", "pypi", "crates.io",
	// Language features that are concrete by themselves.
	"goroutine", "goroutines", "readonly", "keyof", "typeof", "satisfies", "const enum", "isolatedmodules",
	"strictnullchecks", "generics", "go:embed", "omitempty", "omitzero", "defer", "recover()",
	"async/await", "promise.all", "promise.allsettled", "mutexguard", "gil", "borrow checker", "for_each",
	"count.index", "timestamptz", "timestamp without time zone", "uuid", "uuidv4", "uuidv7", "hashCode",
	"HashMap", "BatchNorm", "batchnorm", "StandardScaler", "Array.prototype", "Object.keys", "JSON.parse",
	"JSON.stringify", "set-output", "GITHUB_OUTPUT", "GITHUB_ENV", "GITHUB_TOKEN", "js", "JS", "gzip", "etag",
	"dataframe", "df.loc", "df.iloc", "btree", "b-tree", "CI", "heredoc", "HPA", "HorizontalPodAutoscaler", "autovacuum", "aspect-ratio",
	// Korean names of the same.
	"고루틴", "파이썬", "자바", "자바스크립트", "타입스크립트", "러스트", "쿠버네티스", "도커", "깃", "깃허브",
	"레디스", "포스트그레스", "엔진엑스", "람다", "테라폼", "슬랙", "맥", "맥북", "리눅스", "윈도우", "크론",
	"크론탭", "사파리", "엑셀", "리액트", "노드", "카카오", "토스페이먼츠", "스트라이프", "한글", "파드",
}

// techTerms are technical vocabulary: each distinct one adds a little,
// never enough alone to pass (a platitude about "the cache" stays out).
var techTerms = []string{
	"path traversal", "zip slip", "fixed timestep", "frame rate", "rolling deploy",
	"map", "slice", "array", "channel", "mutex", "lock", "deadlock", "transaction", "index", "placeholder",
	"query", "schema", "migration", "column", "row", "table", "primary key", "foreign key", "sequence",
	"cache", "ttl", "timeout", "deadline", "retry", "backoff", "jitter", "header", "cookie", "token", "request",
	"response", "endpoint", "socket", "port", "connection", "pool", "thread", "process", "signal", "sigterm",
	"sigkill", "pid", "memory", "heap", "stack", "buffer", "stream", "file descriptor", "ulimit",
	"environment variable", "env var", "container", "pod", "node", "image", "layer", "volume", "namespace",
	"cluster", "replica", "probe", "rollout", "ingress", "service account", "bucket", "region", "queue",
	"topic", "partition", "consumer", "offset", "webhook", "payload", "encoding", "charset", "bom", "hash",
	"salt", "signature", "certificate", "intermediate", "resolver", "proxy", "load balancer", "keep-alive",
	"idle timeout", "latency", "throughput", "p99", "cpu", "gpu", "vram", "batch", "epoch", "gradient",
	"dropout", "inference", "autograd", "dependency", "lockfile", "module", "binary", "commit", "branch",
	"rebase", "merge", "shebang", "pipeline", "stdin", "stdout", "stderr", "exit code", "regex", "render",
	"closure", "callback", "event loop", "interface", "nil", "null", "undefined", "nan", "float", "integer",
	"overflow", "iteration order", "checksum", "serialization", "locale", "timezone", "utc", "monotonic",
	"idempotent", "idempotency", "race", "data race", "goroutine leak", "garbage collector", "allocation",
	"syscall", "kernel", "inode", "symlink", "permission", "scope", "role", "policy", "arn", "lifecycle rule",
	"capacity", "backing array", "slice expression", "constraint", "underlying type", "type parameter",
	"named type", "bucket", "lookup", "case-insensitive", "parameter", "mutate", "default argument",
	"training", "fold", "cross-validation", "leak", "comparator", "key", "resource", "element", "offset",
	"busy loop", "ticker", "core", "url", "origin", "redirect", "browser", "append", "union", "exhaustive", "switch", "iterator", "backslash", "grid track", "breakpoint", "bloat",
	// Korean.
	"맵", "슬라이스", "트랜잭션", "인덱스", "쿼리", "컬럼", "테이블", "시퀀스", "캐시", "타임아웃", "헤더", "쿠키",
	"토큰", "요청", "응답", "커넥션", "스레드", "프로세스", "메모리", "힙", "버퍼", "컨테이너", "노드", "이미지",
	"클러스터", "레플리카", "프로브", "버킷", "리전", "큐", "파티션", "웹훅", "인코딩", "해시", "인증서", "프록시",
	"로드밸런서", "처리량", "토크나이저", "패딩", "배치", "의존성", "패키지", "모듈", "바이너리", "커밋", "브랜치",
	"리베이스", "정규식", "렌더링", "클로저", "락", "스키마", "마이그레이션", "시그널", "권한", "스코프", "키",
	"파일명", "페이지 분할", "기본키", "경계", "슬라이싱", "리소스", "재생성", "원소", "로그", "로거", "훅",
	"마스킹", "검증", "서버", "배열", "비교 함수", "문자열", "용량", "복사", "목록", "정렬", "필터", "상태",
}

// agentTerms are the vocabulary of agent tooling. The accept rule counts
// them as technical terms (see acceptable); the stored score does not.
var agentTerms = []string{
	"system prompt", "prompt", "hook", "subagent", "mcp", "claude.md", "agents.md", "sandbox", "tool output",
	"tool call", "egress", "allowlist", "prompt injection", "context window", "readme", "base64",
	"accessibility tree", "red-team", "eval", "staging", "credential",
	// Security, where advice is often prose that names no tool.
	"untrusted", "injection", "mitigation", "exfiltration", "attacker", "least privilege", "denylist",
	"revoke", "rotate", "read-only", "audit log", "confirmation", "outbound", "firewall", "registry",
	"mirror", "fork", "clone", "history", "secret", "referer", "newline", "escape", "sanitize", "ssrf",
	"xss", "csrf", "phishing", "typosquat", "vulnerability", "threat model", "session token",
	"프롬프트", "서브에이전트", "샌드박스", "자격 증명", "스테이징", "인젝션", "허용 목록", "도구 출력",
	"폐기", "유출", "레지스트리", "미러", "포크", "히스토리", "이력", "비밀 값", "외부 네트워크", "외부 통신",
	"공격자", "취약점", "검토", "읽기 전용",
}

// platitudes are vague advice that says nothing a reader can act on.
var platitudes = []string{
	"always write tests", "write tests", "write good", "best practice", "best practices", "keep it simple",
	"keep things simple", "clean code", "good code", "readable code", "communication is key", "communicate",
	"be careful", "it depends", "is important", "are important", "very important", "make sure you",
	"don't forget", "remember to", "think about", "pay attention", "code quality", "quality matters",
	"document your code", "plan ahead", "take breaks", "stay focused", "work hard", "learn from mistakes",
	"follow the docs", "read the docs", "read the documentation", "always check", "double check",
	"test everything", "security matters", "never stop learning", "the right tool", "right tool for the job",
	"is everyone's job", "matters most", "root of all evil", "easy to read", "up to date", "is key",
	"항상", "중요하다", "중요합니다", "중요해요", "잊지 말", "신경 써야", "신경써야", "주의해야", "좋은 코드",
	"깨끗한 코드", "꼼꼼히", "열심히", "기본이다", "기본입니다", "명심", "조심하자", "꾸준히", "도움이 됩니다",
	"적절히", "좋다.",
	// A vendor's copy: praise in place of a detail ("harness the full power
	// of your data", "best-in-class performance").
	"harness the full power", "next-generation", "enterprise-grade", "best-in-class", "industry leaders", "industry-leading",
	"trusted by", "world-class", "cutting-edge", "game-changer", "game-changing", "supercharge", "seamless",
	"혁신적인", "업계 최고", "업계 선도",
}

// Narrative stage lists (lowercase; a trailing "*" marks a prefix).

// sessionPhrases open or close a summary of an agent's or a person's
// working session; one is enough.
var sessionPhrases = []string{
	"in this session", "this session i", "in today's session", "in this conversation", "during this session",
	"here's what i did", "here is what i did", "here's a summary", "here is a summary", "summary of what i did",
	"what i did today", "what i did this", "i have completed the", "i've completed the", "i have finished the",
	"i've finished the", "i have made the following", "i've made the following", "i made the following changes",
	"the changes i made", "let me know if", "i started by", "i began by", "the task is complete",
	"in this pr", "this pr i", "in this pull request", "in this commit", "no functional changes",
	"task is now complete", "the implementation is complete", "all checks are green", "i analyzed the",
	"ready for review", "the requested changes", "as requested", "here's a quick summary", "quick summary:",
	// 세션 alone is also an HTTP, database or URLSession session (생성된 세션에서):
	// only this or today's session is the writer's.
	"이번 세션", "오늘 세션", "제가 한 작업", "작업 내역", "요청하신 작업", "작업을 완료했",
	"말씀해 주세요", "작업한 내용", "작업이 완료되었", "완료되었습니다", "완료했습니다", "요청하신 대로",
	"리뷰 부탁드립니다", "알려 주세요", "간단히 정리하면", "요청하신", "리뷰 준비가",
}

// storyMarkers place a text in a story told from the writer's own time
// and feelings: when it happened counted from the writer's now (today,
// last night, 오늘, 어젯밤), how it went and how it felt (finally, it
// worked, 드디어, 삽질, 뿌듯). A finding has no use for them, so one of
// them keeps a text with narration a story however specific it is.
var storyMarkers = []string{
	// English: the writer's time.
	"today", "yesterday", "tonight", "tomorrow", "this morning", "this afternoon", "this evening", "the other day",
	"all day", "all night", "the whole day", "the whole weekend", "the whole time", "the whole night",
	"after lunch", "over the holidays", "over the weekend", "back when", "when i started", "then i",
	"next, i", "first, i", "late every", "stayed up", "went home", "the retro", "retrospective", "standup",
	"stand-up", "a retro", "looking back", "looking forward", "this week was", "the next day", "next morning",
	"years ago", "a while ago", "long ago", "back then", "this sprint", "next sprint", "hack week",
	"this quarter", "for a month now", "for a week now", "for weeks now", "demo day",
	// English: arc and feelings.
	"finally", "at last", "it worked", "started working", "it works now", "lesson learned", "learned a lot",
	"i learned", "we learned", "struggled", "frustrat*", "tired", "proud", "was happy",
	"were happy", "so happy", "relieved", "excited", "a lot of fun", "was fun", "amazing", "scary", "panicked",
	"disappointed", "satisfying", "celebrated", "felt great", "good times", "my journey", "what a day",
	"productive", "went smoothly", "i'm confident", "not touching it", "enjoy", "welcoming", "thanked",
	"i realized", "i realised", "my first", "had fun", "was busy", "i feel", "feel much better",
	"working as expected", "everything is working", "all tests pass", "all tests passed", "the build is green",
	"everything is green", "nervous", "makes me", "humbling", "overwhelming", "loved it",
	"went well", "glad we", "glad i", "i still find", "happy with", "just in time", "argued", "happier",
	"recap", "pairing", "paired with", "my colleague", "a colleague", "my teammate", "my manager", "my boss",
	"spent the", "got paged", "handed over", "on-call shift", "one day", "a tale of",
	// Cheers for the team, not for what the work taught.
	"shout-out", "shoutout", "kudos", "congrat*", "drinks on", "🎉",
	// The writer's day and the people in the room.
	"took a break", "had lunch", "grabbed lunch", "grabbed coffee", "got coffee", "came back to it",
	"it felt wrong", "felt wrong", "felt right", "not sure it's better", "everyone laughed", "we laughed",
	"the ceo said", "my manager said", "the boss said",
	// A tale retold from a former workplace. (Not its food, drink or
	// "the story": a friend function, a pizza sample app and "to this day"
	// are in findings too.)
	"an old job", "my old job", "my last job", "my previous job", "a previous job", "my first job",
	"former employer", "never found out",
	// English: the writer's plans, status, thanks and tastes.
	"i will", "i'll", "i want to", "my plan", "plan:", "next i", "i'm going to", "we will", "we plan",
	"status:", "% done", "hasn't been started", "not started yet", "risks:", "blockers:", "huge thanks",
	// Release notes told as a celebration, with no change named.
	"can't wait for you", "stay tuned", "part of our journey", "let us know what you think", "biggest release yet", "thrilled to",
	"a ton of improvements", "lots of improvements",
	// The writer leaving the desk, or the work judged as a whole.
	"heading out", "signing off", "logging off", "calling it a day", "wrapped up the", "as planned",
	"thanks to everyone", "thank you all", "without you", "i really like", "i love", "i hate", "in my opinion",
	"my favourite", "my favorite", "i would pick", "i'm working on", "i am working on", "i keep getting",
	"i've been", "i have been", "we've been", "weeks went by", "days went by", "one evening", "one morning",
	"one night", "that was it",
	// Korean: the writer's time.
	"오늘", "어제", "어젯밤", "그저께", "오후 내내", "밤새", "지난주", "지난달", "지난번", "작년", "연휴",
	"전 직장", "예전 직장", "예전 회사", "이전 회사", "회식",
	"하루 종일", "하루종일", "내내", "퇴근", "출근", "시절", "첫 주", "다음 주", "내일", "다음 스프린트",
	"이번 스프린트", "스탠드업", "회고", "퇴근 무렵", "이번 주", "정신이 없", "씨름", "다음 날", "한 달째",
	// Korean: arc and feelings.
	"드디어", "마침내", "겨우", "삽질", "헤맸", "헤매", "고생", "뿌듯", "힘들었", "재미있", "재밌",
	"즐거웠", "다행", "신났", "기뻤", "속상", "아쉬웠", "느꼈", "느낀", "기분", "보람", "피곤", "배웠",
	"좋아했", "마음에 든다", "정신없", "한참", "감이 오", "흘려들", "데이고", "행복", "무난하게", "막막",
	"지쳤", "무사히", "잘했다", "토론", "순조로", "알게 됐", "알게 되었", "동료", "팀원", "팀장님", "사수",
	"같이 봤", "완료 보고", "먹고", "먹으러", "생각보다 오래", "이제야", "그제야", "쯤에야",
	"예정이다", "예정입니다", "생각이다", "할 계획", "진행 상황", "요즘", "모르겠다", "헷갈린다", "도와준", "도와주신",
	"진행됐다", "진행 중이다", "시작하지 못했", "위험 요소", "감사드립니다", "감사합니다", "고맙", "애를 먹",
	"하는 중이다",
}

// sequenceMarkers tell a plot in steps ("at first", "then we",
// "eventually", 먼저 … 마지막으로). One may sit in a finding ("the pool
// eventually runs dry"); two make a specific text a story again.
var sequenceMarkers = []string{
	"at first", "in the end", "eventually", "after a while", "after that", "then we", "one by one",
	"next we", "first we", "since then", "마지막으로", "그 다음", "그다음", "그러고", "그리고 나서", "결국",
	"처음에는", "처음엔", "처음으로", "먼저", "하나하나", "첫날", "둘째 날", "셋째 날", "그 뒤에", "다음에는",
	"그다음에",
}

// timeMarkers are clock and schedule words. A story uses them (새벽,
// "the evening", "on Sunday"), but so does a finding about a cron job, a
// nightly backup or a time zone ("every Sunday at 03:00", "자정에 일괄
// 실행했더니 … 새벽 1시 이후로 옮겼습니다"): in a specific finding they do not
// make a story.
var timeMarkers = []string{
	"every night", "for days", "by evening", "the afternoon", "the morning", "the evening", "successfully",
	"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
	"아침에", "오전에", "오후에", "저녁에", "새벽", "주말", "이틀", "사흘", "점심", "이후", "저녁", "자정",
	"생각보다", "오래 걸렸", "월요일", "화요일", "수요일", "목요일", "금요일", "토요일", "일요일",
}

// markerPattern is a story, sequence or time marker written as a pattern.
type markerPattern struct {
	re   *regexp.Regexp
	kind markerKind
}

// markerKind says how much a marker weighs against a specific finding.
type markerKind int

const (
	timeMarker markerKind = iota
	sequenceMarker
	storyMarker
)

var storyMarkerPatterns = []markerPattern{
	{regexp.MustCompile(`\b(?:after|for|over|in) (?:\d+|a few|a couple of|several|two|three|four|five|six|ten|many) (?:hours?|days?|weeks?|nights?)\b|\bover (?:\d+|a few|a couple of|several|two|three|four|five|six) (?:sprints|iterations|months|quarters)\b`), timeMarker},
	{regexp.MustCompile(`\bat \d{1,2}(?::\d\d)?\s?(?:am|pm)\b|\bat \d{1,2}:\d\d\b|\bby \d{1,2}\s?(?:am|pm)\b`), timeMarker},
	{regexp.MustCompile(`\bmy (?:day|week|weekend|morning|afternoon|evening|monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b|\b(?:\w+day|morning|afternoon) started with\b|\b(?:last|this|next) (?:night|week|weekend|month|quarter|year|sprint|monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b`), storyMarker},
	{regexp.MustCompile(`\b(?:on|by) (?:night|week|weekend|month|year|sprint|monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b`), timeMarker},
	{regexp.MustCompile(`\bit was an? (?:\w+ )?(?:day|week|night|month|weekend|morning|evening)\b`), storyMarker},
	// Exhausted as the writer's state ("I'm exhausted", "everybody was
	// just exhausted"), not a pool's, a heap's or the inodes'.
	{regexp.MustCompile(`\b(?:i'm|i am|i was|we were|we're|everyone was|everybody was|feeling|felt|slightly|so|very|completely|totally|just|utterly)\s+exhausted\b|(?:^|[.!?]\s+)exhausted\b`), storyMarker},
	{regexp.MustCompile(`\b(?:day|step) \d+:|\d+단계:`), storyMarker},
	// Where the writer's or the team's time went ("spent most of Q3 on…",
	// "spent the whole sprint moving…"): a retrospective, not a finding.
	{regexp.MustCompile(`\bspent (?:most|much|all|a lot|a good part|the better part|half) of (?:the |our |my |this |last )?(?:day|week|month|quarter|q[1-4]|sprint|iteration|year|half|summer|spring|autumn|fall|winter|afternoon|morning|weekend|first half|second half)\b|\bspent the (?:whole |entire )?(?:day|week|month|quarter|sprint|iteration|afternoon|morning|weekend)\b`), storyMarker},
	// The writer's meals and breaks ("11:50 lunch", "going to grab a
	// coffee"): a finding has no use for them.
	{regexp.MustCompile(`\b(?:lunch|dinner|breakfast|coffee)\b|커피`), storyMarker},
	// A sentence opening on the writer's clock and what was done then
	// ("9:40 deleted a block…"): a timeline of the writer's day, not a log
	// line (which carries a level or a source, not a past-tense verb).
	{regexp.MustCompile(`(?m)(?:^|[.!?]\s+)\d{1,2}:\d\d\s+(?:[a-z]{2,}ed|went|got|had|did|ran|took|made|put|came|left|was|were)\b`), storyMarker},
	// A sentence opening on an interjection, a session told as it is
	// lived ("ok starting on…", "hmm lots of props").
	{regexp.MustCompile(`(?m)(?:^|[.!?]\s+)(?:ok|okay|hmm+|ugh|argh|phew|whew|yay|oops|welp|meh|lol)(?:[ ,.!]|$)`), storyMarker},
	{regexp.MustCompile(`(?:한|두|세|네|다섯|여섯|몇)\s?(?:시간|일|주|달|개월)\s?(?:넘게|째|내내)|\d+\s?(?:시간|일|주|달|개월)\s?(?:넘게|내내)|지난\s?(?:[월화수목금토일]요일|주말|밤)|[월화수목금토일]요일은`), storyMarker},
	{regexp.MustCompile(`(?:\d+|한|두|세|네|다섯|여섯|몇)\s?(?:시간|일|주)\s?(?:동안|만에)`), timeMarker},
	{regexp.MustCompile(`\d{1,2}시(?:\s?\d{1,2}분)?(?:에|쯤)`), timeMarker},
	// Korean endings of the writer's plans, wishes and ongoing work, and
	// people named with 님: they follow a verb stem, so they are patterns.
	{regexp.MustCompile(`려고\s*(?:한다|합니다|해요)|고\s*싶(?:다|습니다|어요)|는\s*중(?:이다|입니다|이에요)|지나서야|흘러서야|(?:몇|한|두|세|네)\s?(?:주|달|시간|일|해)(?:가|이)\s?(?:지나|흘러)|(?:나는|저는)[^.\n]{0,60}(?:생각한다|생각합니다|좋아한다|좋아합니다)|[가-힣]{1,3}님(?:이|께서|과|와|에게|이랑)\s`), storyMarker},
}

// koreanFirstPerson are Korean first-person subjects; koreanSingular the
// singular ones, which narrate the writer's own day.
var (
	koreanFirstPerson = []string{"나는", "내가", "나도", "저는", "제가", "저도", "우리는", "우리가", "우리 팀", "우리팀"}
	koreanSingular    = []string{"나는", "내가", "나도", "저는", "제가", "저도"}
)

// diaryOpeners open a diary sentence with its subject left out ("Spent the
// afternoon on…", "Had a pairing session…").
var diaryOpeners = map[string]bool{
	"spent": true, "had": true, "went": true, "stayed": true, "finished": true, "played": true, "tried": true, "worked": true,
}

// irregularPast are common irregular past-tense verbs.
var irregularPast = map[string]bool{
	"was": true, "were": true, "had": true, "did": true, "didn't": true, "wasn't": true, "weren't": true,
	"got": true, "went": true, "spent": true, "found": true, "took": true, "made": true, "saw": true,
	"thought": true, "knew": true, "felt": true, "came": true, "began": true, "ran": true, "wrote": true,
	"kept": true, "left": true, "told": true, "said": true, "built": true, "gave": true, "broke": true,
	"fought": true, "bought": true, "caught": true, "taught": true, "sat": true, "stood": true, "lost": true,
	"won": true, "met": true, "paid": true, "sent": true, "heard": true, "held": true, "led": true, "ate": true,
	"drove": true, "flew": true, "grew": true, "threw": true, "chose": true, "fell": true, "forgot": true,
	"woke": true, "understood": true, "became": true, "brought": true, "struck": true, "rewrote": true,
	"couldn't": true, "wouldn't": true, "hadn't": true, "dug": true, "stuck": true, "slept": true,
	"rebuilt": true, "redid": true, "reran": true, "undid": true, "overrode": true,
}

// pastParticiples are irregular participles of the passive past.
var pastParticiples = map[string]bool{
	"taken": true, "given": true, "written": true, "broken": true, "shown": true, "done": true, "seen": true,
	"known": true, "thrown": true, "driven": true, "chosen": true, "forgotten": true, "hidden": true,
	"stolen": true, "frozen": true, "eaten": true, "beaten": true, "woken": true, "spoken": true,
	"built": true, "sent": true, "kept": true, "lost": true, "held": true, "set": true, "put": true,
	"cut": true, "hit": true, "shut": true, "spent": true, "found": true, "left": true, "paid": true,
	"told": true, "sold": true, "made": true, "brought": true, "bought": true, "caught": true, "run": true,
}

// notPast are words ending in -ed that are usually adjectives in findings.
var notPast = map[string]bool{
	"unquoted": true, "quoted": true, "signed": true, "unsigned": true, "scoped": true, "named": true,
	"cached": true, "nested": true, "required": true, "expected": true, "supported": true, "deprecated": true,
	"allowed": true, "enabled": true, "disabled": true, "based": true, "detailed": true, "limited": true,
	"mixed": true, "hundred": true, "shared": true, "typed": true, "sorted": true, "encrypted": true,
	"compressed": true, "prefixed": true, "hashed": true, "versioned": true, "pinned": true, "indexed": true,
	"provisioned": true, "managed": true, "hosted": true, "embedded": true, "isolated": true, "unused": true,
	"need": true, "speed": true, "feed": true, "seed": true, "indeed": true, "proceed": true, "exceed": true,
	"succeed": true, "embed": true, "shred": true, "seeded": false,
}

// practiceTerms are the nouns of security and operations advice (links,
// accounts, releases, logs, tools and what they produce). Beside
// techTerms and agentTerms they count only toward a concrete practice
// (see concretePractice): vague advice uses them too, so they never lift
// a score.
var practiceTerms = []string{
	"link", "access", "deploy key", "build server", "build machine", "account", "password", "reset", "login",
	"log in", "session", "host", "domain", "path", "allow-list", "backup", "restore", "release", "instance",
	"version", "rollback", "deploy", "compiler", "output", "error message", "test", "linter", "shell", "script",
	"installer", "command", "file", "directory", "repository", "repo", "pull request", "working tree",
	"codebase", "context", "network", "user id", "body", "bodies", "personal data", "inbox", "mail",
	"crash report", "error tracker", "window", "attribute", "archive", "entry", "entries", "tool", "model",
	"web page", "page", "issue comment", "comment", "delimiter", "summary", "confirmation", "consumer",
	"outage", "server", "log", "expire", "expiry", "lifetime", "grant", "ticket", "channel", "chat", "download",
	"upload", "traffic", "package", "data", "error", "failure", "build", "agent", "task", "turn", "plan",
	"change", "lookalike", "code", "filter", "text",
	"링크", "접근", "배포 키", "빌드 서버", "빌드 머신", "계정", "비밀번호", "재설정", "로그인", "세션", "호스트",
	"도메인", "경로", "백업", "복원", "릴리스", "인스턴스", "버전", "롤백", "배포", "컴파일러", "출력", "오류",
	"테스트", "린터", "셸", "스크립트", "명령", "파일", "디렉터리", "저장소", "풀 리퀘스트", "네트워크", "감사 로그",
	"본문", "개인정보", "메일", "받은편지함", "크래시 리포트", "속성", "파라미터", "압축", "항목", "도구", "모델",
	"페이지", "댓글", "블록", "요약", "확인 단계", "서버", "만료", "수명", "티켓", "채팅", "다운로드", "트래픽",
	"데이터", "빌드", "에이전트", "작업", "변경", "사용처", "장애", "주소", "창", "호출", "코드",
}

// hedges are the words of advice that leaves the reader to work it out:
// how often ("now and then", "regularly"), attention and process ("look
// at", "revisit", "keep an eye on", "as a whole", "the team"), verdicts
// without a measure ("sensible", "a good idea", "better", "seems",
// "something") and the buzzwords of long vague advice ("ensure",
// "culture", "strategy", "resilience"). A concrete practice holds none of
// them. English entries match as words ("*" marks a prefix); Korean
// entries match anywhere.
var hedges = []string{
	// How often, and attention and process.
	"review them", "review it", "review how", "review what", "review of the", "reviewed regularly", "revisit*",
	"reconsider*", "rethink*", "look at", "looked at", "looking at", "look into", "look again", "keep an eye",
	"keep watching", "think about", "think through", "consider", "considered", "as a whole", "together",
	"the team", "whole team", "teams", "everyone", "every engineer", "stakeholder*", "organisation*",
	"organization*", "from time to time", "now and then", "regularly", "periodically", "sooner rather than later",
	"for a while", "over time", "over the long", "in the long run", "agree", "adjust", "tighten", "tidy",
	"clean things up", "try to", "collaborat*", "in mind", "a must", "watch its", "watch the", "watch their",
	"on a schedule", "when you need", "some of it", "up to date", "up-to-date",
	// Verdicts without a measure.
	"sensible", "reasonable", "appropriate", "appropriately", "properly", "careful", "carefully", "special care",
	"somewhere safe", "a good idea", "it helps", "helps to", "worth", "deserve*", "tend to", "tends to", "seem",
	"seems", "looks off", "looks sensitive", "looks slowest", "looks wrong", "looks loose", "looks too", "feel",
	"feels", "something", "somebody", "things", "problem", "problems", "trouble", "surprises", "strange",
	"strangely", "alert", "priority", "double-edged", "the situation", "evolve", "evolves", "unexpected",
	"nothing bad", "under control", "much more useful", "enough context", "better", "best", "great", "good",
	"easier", "wisely", "mindful*", "healthy", "balance*", "painful", "smooth*", "crucial", "essential",
	"important", "meaningful", "unnecessary", "optimize", "optimise", "as closely as possible",
	"as much as possible", "as soon as possible", "common source", "many ways", "in many", "safety",
	// The buzzwords of long vague advice.
	"robust", "holistic*", "leverag*", "empower*", "ensur*", "enabl*", "allowing", "foster*", "excellen*",
	"modern", "inevitabl*", "deliberately", "cultivat*", "thoughtful*", "gracefully", "value", "velocity",
	"benefit", "benefits", "strengthen*", "improv*", "increas*", "resilien*", "culture", "mindset", "principle",
	"principles", "strateg*", "posture", "effective", "effectively", "well-defined", "clear", "scalab*",
	"maintainab*", "consisten*", "proactive*", "actionable", "insight*", "quality", "productiv*", "business",
	"vigilant", "emerging", "opportunit*", "intuitive", "well documented", "backbone", "experience", "thriving",
	"measurable", "informed", "journey", "attractive", "routine",
	"mature", "maturity", "pillar*", "the right way", "first-class", "embrac*", "make or break", "balancing act",
	"multi-dimensional", "continuous process", "industry standard", "best-in-class", "world-class", "realities",
	"design accordingly", "in today's", "landscape", "no longer sufficient", "hygiene", "awareness",
	"defence-in-depth", "defense-in-depth", "stay compliant",
	// Attitudes in place of a practice: a trait to have, a duty everyone
	// shares, attention to pay.
	"valuable", "curiosity", "curious", "trait", "traits", "responsibility of", "everyone's",
	// Korean.
	"좋습니다", "좋다", "편이 좋", "것이 좋", "바람직", "살펴", "전반", "전체적으로", "전체를", "함께", "가끔",
	"때때로", "주기적으로", "정기적", "그때그때", "한번", "충분히", "적절", "신경", "특별히", "경계하", "경계를",
	"우선순위", "조금씩", "이상해 보이", "해 보이", "것 같은", "미리", "느슨", "조여", "모범 사례", "중요하",
	"중요성", "중요해", "필수", "신중", "팀이", "팀 모두", "팀 전체", "모두가", "모든 엔지니어", "생각보다",
	"문제가", "예상하지 못한", "고려", "다시 검토", "검토하고", "유연하게", "효율", "가치", "품질", "믿을 만한",
	"잘 활용", "꾸준히", "최적화", "모니터링하", "강화", "보장", "탄력", "견고", "지속적으로", "꼭", "꼼꼼",
	"가장 좋은", "전략", "원칙", "문화", "조직", "생산성", "향상", "효과적", "명확한", "명확하게", "일관되게",
	"안전하게", "안전한 곳", "체계", "사고방식", "내재화", "불필요한", "쉽습니다", "쉬워", "단순", "노력",
	"좋은 ", "잘 지", "편리", "필요한 만큼", "미묘하게", "늘 ", "의식", "지켜보", "최신", "매력적",
	"성숙", "결국 중요한", "깊은 이해", "종합적으로",
	"모두의 책임", "만의 일이 아닙", "관심을 가져", "꾸준한",
	// Korean's "consider": a thought to have in place of a step (자동화를
	// 고민해 보세요, 읽을 사람을 생각하면서).
	"고민", "생각해 보", "생각하면서", "염두에",
	// A limit the writer leaves to the reader's judgement: "under 10
	// minutes where possible", "가능하면 400줄 이하로".
	"where possible", "when possible", "if you can", "if possible", "가능하면", "가급적",
	// A judgement left to the reader: "lazy-load where it makes sense",
	// "memoize where it matters", "tune the relevant parameters".
	"makes sense", "make sense", "really need", "where it matters", "when it matters", "the relevant", "sometimes",
}

// consequences are the words with which a practice states what it does,
// prevents or lets happen, or in which order it goes: a negation or a
// limit ("cannot", "only", 없다, 만), a possibility ("a fetched page can
// contain …"), a contrast ("rather than", 아니라) or a step ("before",
// "then", 먼저, 뒤에). A cause word (reCause) counts too. Most vague advice
// states one as well; the hedges are what keep it out.
var consequences = []string{
	"not", "cannot", "can't", "doesn't", "don't", "won't", "never", "still", "only", "fail", "fails",
	"rather than", "instead of", "before", "after", "first", "last", "then", "until", "can", "could",
	"없다", "않는다", "않는", "못한다", "못 ", "않고", "남는다", "열린다", "닿고", "없고", "없으", "대신", "만 ", "뿐",
	"전에", "뒤에", "먼저", "다음", "나서", "아니라", "절대",
}
