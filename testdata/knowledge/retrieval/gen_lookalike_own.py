#!/usr/bin/env python3
"""Writes pairs-lookalike-own.jsonl: session 11's own look-alike pairs (ret11).

Written from general engineering knowledge before reading any miss of
retrieval11/ or retrieval13/: for each of the ten detail categories, texts in
English and Korean, in prose and in code or config, the detail in the middle
of a long text. A look-alike is the text with exactly one string replaced
(every occurrence, at word edges); each has a rewording control, the same
finding in another agent's words that keeps the detail. Run:
python3 gen_lookalike_own.py (prints OK and rewrites the file).
"""
import json, re, sys, os

# (id, category, lang, form, title, content, from, to, rewording title, rewording content)
ITEMS = []
def item(*a):
    ITEMS.append(a)

# ---- number ----
item("num-en-prose", "number", "en", "prose",
 "Browser stalls loading many small assets over HTTP/1.1",
 "A dashboard that loads about 80 small JavaScript and image files took several seconds to render on a fast network. Over HTTP/1.1 a browser opens at most 6 connections to one host and queues every other request behind them, so the waterfall showed long grey stalls before each batch. Enabling HTTP/2 on the load balancer multiplexes all requests over one connection and removed the stalls; bundling the scripts and serving the images from a sprite helps where HTTP/2 is not available.",
 "at most 6 connections", "at most 8 connections",
 "HTTP/1.1 per-host connection limit causes asset stalls",
 "Why the dashboard with about 80 tiny assets rendered slowly: browsers allow HTTP/1.1 at most 6 connections per host, so the remaining requests wait in a queue, visible as grey stalled bars in the network waterfall. Turning on HTTP/2 at the load balancer fixed it, since one connection carries every request. Without HTTP/2, bundle the scripts and sprite the images.")
item("num-en-code", "number", "en", "code",
 "Autovacuum falls behind on a large, busy PostgreSQL table",
 "An events table of about 40 million rows kept bloating although autovacuum was running. With the global autovacuum_vacuum_scale_factor of 0.2, a vacuum only starts once a fifth of the table is dead tuples, and the default cost limit throttles it further. Per-table settings fixed it:\n\n```sql\nALTER TABLE events SET (autovacuum_vacuum_scale_factor = 0.01, autovacuum_vacuum_cost_limit = 2000);\n```\n\nVacuums then ran every few minutes and n_dead_tup in pg_stat_user_tables stayed low.",
 "0.01", "0.05",
 "Per-table autovacuum settings for a bloating events table",
 "The 40M-row events table bloated because autovacuum_vacuum_scale_factor defaults to 0.2 (vacuum waits for a fifth of the rows to be dead) and the cost limit slows each run. `ALTER TABLE events SET (autovacuum_vacuum_scale_factor = 0.01, autovacuum_vacuum_cost_limit = 2000);` made vacuum run every few minutes; watch n_dead_tup in pg_stat_user_tables.")
item("num-ko-prose", "number", "ko", "prose",
 "Kafka 컨슈머 그룹이 몇 분마다 리밸런스된다",
 "처리 시간이 긴 배치 컨슈머에서 리밸런스가 몇 분마다 반복되고 같은 메시지가 두 번 처리됐다. poll 과 poll 사이가 max.poll.interval.ms 를 넘기면 컨슈머가 그룹에서 빠지고 파티션이 다른 멤버에게 넘어간다. 한 번에 가져오는 레코드를 500 개에서 100 개로 줄이자 한 번의 처리 시간이 간격 안에 들어와 리밸런스가 멈췄다. 처리가 느릴 때는 간격을 늘리기보다 가져오는 양을 줄이는 편이 장애 감지가 늦어지지 않는다.",
 "100 개로", "200 개로",
 "긴 배치 처리로 인한 Kafka 리밸런스 반복",
 "배치 하나 처리가 오래 걸리면 max.poll.interval.ms 안에 다음 poll 을 못 해서 컨슈머가 그룹에서 제외되고, 리밸런스와 중복 처리가 몇 분 간격으로 생긴다. 한 번의 poll 로 받는 레코드 수를 500 개에서 100 개로 낮추니 해결됐다. 간격 자체를 늘리면 죽은 컨슈머 감지도 늦어지므로 가져오는 양을 먼저 줄이는 게 낫다.")
item("num-ko-code", "number", "ko", "code",
 "Nginx 업로드가 413 으로 거절될 때",
 "사용자 프로필 이미지 업로드가 가끔 413 Request Entity Too Large 로 실패했다. nginx 의 기본 본문 크기 제한이 1m 이라 그보다 큰 사진이 막힌 것이다. server 블록에 다음처럼 넣고 reload 하면 된다.\n\n```nginx\nclient_max_body_size 20m;\n```\n\n앞단에 다른 프록시나 로드밸런서가 있다면 그쪽 제한도 같이 확인해야 하고, 애플리케이션 서버의 제한도 함께 맞춰야 한다.",
 "20m", "50m",
 "413 Request Entity Too Large: nginx 본문 크기 제한",
 "프로필 사진 업로드 중 일부가 413 Request Entity Too Large 를 받았다면 nginx 의 본문 크기 기본 제한 1m 때문이다. `client_max_body_size 20m;` 을 server 블록에 추가하고 reload 하자. 앞의 로드밸런서나 프록시, 앱 서버에도 각자의 업로드 제한이 있으니 같이 올려야 한다.")
item("num-en-retry", "number", "en", "prose",
 "Retry storms after a short database outage",
 "After a five-minute database outage the API stayed overloaded for another half hour. Every client retried failed calls 3 times with a fixed delay of 1 second, and each API request in turn retried its database queries, so one user action became a dozen database calls at the moment the database came back. Exponential backoff with jitter on the client, and retries at one layer only, let the service recover within a minute.",
 "1 second", "3 seconds",
 "Retries at two layers multiplied load after the outage",
 "Our API took half an hour to recover from a five-minute database outage: clients retried 3 times with a fixed 1 second delay and the API retried its own queries too, so each user action turned into a dozen database calls right when the database returned. Retry at one layer only, with exponential backoff and jitter; recovery then took a minute.")

# ---- version ----
item("ver-en-prose", "version", "en", "prose",
 "Node 18 fetch ignores the HTTP_PROXY variable",
 "A CLI that calls an internal API worked on developer laptops but timed out in the corporate CI network. The built-in fetch that arrived in Node.js 18 is undici, and it does not read HTTP_PROXY or HTTPS_PROXY the way axios and the old request library did, so requests went straight out and were dropped by the firewall. Passing a ProxyAgent from undici as the dispatcher, or setting a global dispatcher once at startup with setGlobalDispatcher, routed the calls through the proxy.",
 "18", "20",
 "undici fetch in Node 18 bypasses HTTP_PROXY",
 "In CI behind the company proxy our CLI's requests timed out, although they worked locally: Node.js 18's global fetch (undici) never looks at HTTPS_PROXY or HTTP_PROXY, unlike axios. Fix: create an undici ProxyAgent and pass it as the dispatcher, or call setGlobalDispatcher at startup.")
item("ver-en-code", "version", "en", "code",
 "Compose file with a health condition fails on an old docker-compose",
 "A compose file that used depends_on with condition: service_healthy was rejected on one build server with an error that the condition is not supported. That server still ran docker-compose 1.25, the Python implementation, where the long form of depends_on was dropped in file format 3 and only came back with the Compose Specification. Installing the Compose v2 plugin and running docker compose up (with a space) accepted the file unchanged:\n\n```yaml\nservices:\n  api:\n    depends_on:\n      db:\n        condition: service_healthy\n```",
 "1.25", "1.29",
 "depends_on condition: service_healthy needs Compose v2",
 "On the build server still running docker-compose 1.25 (the Python one), condition: service_healthy under depends_on was refused: file format 3 removed the long form until the Compose Specification restored it. With the Compose v2 plugin, `docker compose up` takes the same file as is.")
item("ver-ko-prose", "version", "ko", "prose",
 "Spring Boot 3 으로 올린 뒤 javax 패키지 컴파일 오류",
 "Spring Boot 2.7 에서 3.0 으로 올리자 javax.persistence 를 임포트하는 엔티티 클래스가 모두 컴파일되지 않았다. Spring Boot 3.0 은 Jakarta EE 9 이후를 기준으로 하므로 javax 네임스페이스가 jakarta 로 바뀌었고, Hibernate 도 6 으로 함께 올라간다. import 문을 jakarta.persistence 로 일괄 치환하고, javax 를 쓰는 오래된 라이브러리는 jakarta 판으로 교체해야 한다. OpenRewrite 의 마이그레이션 레시피를 쓰면 치환을 자동으로 할 수 있다.",
 "Jakarta EE 9", "Jakarta EE 8",
 "Spring Boot 3.0 업그레이드 후 javax.persistence 를 못 찾음",
 "2.7 에서 Spring Boot 3.0 으로 올리면 javax.persistence 를 쓰는 엔티티가 컴파일되지 않는다. 3.0 이 Jakarta EE 9 이후 기반이라 패키지가 jakarta 로 바뀌었기 때문이고, Hibernate 는 6 이 된다. import 를 jakarta.persistence 로 바꾸고 javax 의존 라이브러리는 jakarta 버전으로 교체하자. OpenRewrite 레시피로 자동 치환이 된다.")
item("ver-ko-code", "version", "ko", "code",
 "GitHub Actions 에서 Node 16 액션 사용 중단 경고",
 "워크플로 실행 화면에 Node.js 16 actions are deprecated 경고가 계속 떴다. 러너가 오래된 Node 런타임으로 도는 액션을 더 이상 지원하지 않기 때문에, 사용하는 액션의 메이저 버전을 올려야 한다. 예를 들어 체크아웃과 캐시는 다음처럼 바꾼다.\n\n```yaml\n- uses: actions/checkout@v4\n- uses: actions/cache@v4\n```\n\n사내 액션이라면 action.yml 의 runs.using 을 node20 으로 바꾸고 다시 태그를 달아야 한다.",
 "actions/cache@v4", "actions/cache@v3",
 "Node.js 16 actions are deprecated 경고 없애기",
 "이 경고는 워크플로가 Node 16 런타임 액션을 쓰고 있다는 뜻이다. actions/checkout@v4, actions/cache@v4 처럼 메이저 버전을 올리면 사라진다. 직접 만든 액션은 action.yml 의 runs.using 값을 node20 으로 고친 뒤 새 태그를 붙인다.")

# ---- identifier ----
item("id-en-prose", "identifier", "en", "prose",
 "Kubernetes pod restarts while the app is still warming up",
 "A Spring service that needs about two minutes to warm its caches was killed and restarted in a loop right after every deploy. The livenessProbe started checking as soon as the container came up, failed three times in a row during warm-up, and the kubelet restarted the container before it ever became ready. Adding a startupProbe with a generous failureThreshold holds the other probes back until its first success, so the liveness check only starts once the service is actually up.",
 "livenessProbe", "readinessProbe",
 "Slow-starting pods killed in a loop: add a startupProbe",
 "Our service warms caches for about two minutes, and the livenessProbe began right at container start, failed three times and got the container restarted by the kubelet before it was ever ready, after every deploy. A startupProbe with a large failureThreshold keeps the other probes waiting until it succeeds once.")
item("id-en-code", "identifier", "en", "code",
 "Python logging prints nothing from the package's own loggers",
 "Debug messages from our own package never appeared although the root level was set to DEBUG. The package's modules call `logging.getLogger(__name__)` at import, and the configuration loaded with `logging.config.dictConfig` had `disable_existing_loggers` left at its default of true, which silences every logger created before the call. Setting it explicitly fixed the output:\n\n```python\nlogging.config.dictConfig({\n    \"version\": 1,\n    \"disable_existing_loggers\": False,\n    \"root\": {\"level\": \"DEBUG\"},\n})\n```",
 "logging.config.dictConfig", "logging.config.fileConfig",
 "disable_existing_loggers silences loggers created at import",
 "If `logging.getLogger(__name__)` runs at import time and you configure later with `logging.config.dictConfig`, the default `disable_existing_loggers` of true disables those loggers, so DEBUG output from the package vanishes even with root at DEBUG. Pass `\"disable_existing_loggers\": False` in the dict.")
item("id-ko-prose", "identifier", "ko", "prose",
 "React 개발 모드에서 useEffect 정리 함수가 먼저 실행된다",
 "개발 모드에서 구독을 여는 컴포넌트가 마운트 직후 구독을 해제했다가 다시 여는 것처럼 보였다. React 18 의 StrictMode 는 개발 빌드에서 컴포넌트를 한 번 마운트하고 바로 언마운트한 뒤 다시 마운트해서, useEffect 의 정리 함수가 제대로 짜여 있는지 확인한다. 운영 빌드에서는 한 번만 실행되므로 버그가 아니고, 정리 함수에서 구독을 확실히 해제하도록 만들면 된다.",
 "StrictMode", "Profiler",
 "StrictMode 때문에 useEffect 가 두 번 도는 것처럼 보임",
 "React 18 개발 빌드에서 StrictMode 는 컴포넌트를 마운트, 언마운트, 재마운트해서 useEffect 정리 함수를 시험한다. 그래서 구독이 열렸다 닫혔다 다시 열리는 것처럼 보이지만 운영 빌드에서는 한 번만 돈다. 정리 함수에서 구독을 확실히 해제하면 된다.")
item("id-ko-code", "identifier", "ko", "code",
 "Go 에서 요청 취소가 백그라운드 작업에 전달되지 않음",
 "요청이 취소돼도 백그라운드 작업이 계속 돌았다. 핸들러에서 받은 컨텍스트 대신 context.Background() 로 새 컨텍스트를 만들어 작업에 넘겼기 때문에 취소 신호가 끊긴 것이다. 아래처럼 요청의 컨텍스트에서 파생해야 한다.\n\n```go\nctx, cancel := context.WithTimeout(r.Context(), 5*time.Second)\ndefer cancel()\ngo worker(ctx, jobs)\n```\n\n요청이 끝난 뒤에도 작업을 이어가야 한다면 Go 1.21 의 context.WithoutCancel 을 쓰고 따로 타임아웃을 건다.",
 "context.WithTimeout", "context.WithDeadline",
 "context.Background() 를 넘기면 요청 취소가 전파되지 않는다",
 "백그라운드 작업에 context.Background() 로 만든 컨텍스트를 넘기면 요청이 취소돼도 작업은 계속된다. `ctx, cancel := context.WithTimeout(r.Context(), 5*time.Second)` 처럼 요청 컨텍스트에서 파생하자. 요청 뒤에도 이어가야 하면 Go 1.21 의 context.WithoutCancel 에 별도 타임아웃을 붙인다.")

# ---- path ----
item("path-en-prose", "path", "en", "prose",
 "systemd keeps running the old ExecStart after an edit",
 "Changes to a service's ExecStart did not take effect after restarting it. The unit had been edited in place under /lib/systemd/system, which the package manager owns and overwrites on upgrade, and systemd also keeps its parsed copy until the configuration is reloaded. Put local changes in a drop-in at /etc/systemd/system/myapp.service.d/override.conf, created with systemctl edit myapp, then run systemctl daemon-reload before the restart; systemctl cat myapp shows which files are in effect.",
 "/etc/systemd/system/myapp.service.d/override.conf", "/run/systemd/system/myapp.service.d/override.conf",
 "Use a drop-in and daemon-reload instead of editing /lib/systemd/system",
 "Editing a unit in /lib/systemd/system is overwritten by package upgrades, and a restart alone keeps the old parsed unit. systemctl edit myapp writes /etc/systemd/system/myapp.service.d/override.conf; run systemctl daemon-reload, then restart, and check the result with systemctl cat myapp.")
item("path-en-code", "path", "en", "code",
 "Git hooks committed to the repository never run",
 "A pre-commit script committed to the repository never ran for anyone. Git only runs hooks from the hooks directory inside .git, which is not versioned, so a script checked in under scripts/hooks did nothing until each clone pointed Git at it:\n\n```sh\ngit config core.hooksPath scripts/hooks\nchmod +x scripts/hooks/pre-commit\n```\n\nThe file must be executable and named exactly after the hook, without an extension; tools such as pre-commit or husky do this setup for you.",
 "scripts/hooks", "tools/hooks",
 "Versioned hooks need core.hooksPath",
 "Hooks checked into scripts/hooks are ignored, because Git only looks in .git/hooks, which is not versioned. Each clone needs `git config core.hooksPath scripts/hooks`, and the hook file must be executable (`chmod +x scripts/hooks/pre-commit`) with no extension. pre-commit or husky automate it.")
item("path-ko-prose", "path", "ko", "prose",
 "cron 작업에서만 명령을 찾지 못함",
 "터미널에서는 잘 되던 백업 스크립트가 cron 에서만 command not found 로 실패했다. cron 은 로그인 셸의 설정을 읽지 않고 최소한의 PATH 로 실행되기 때문에, /usr/local/bin 에 설치한 도구를 찾지 못한 것이다. 스크립트 안에서 절대 경로로 호출하거나 crontab 맨 위에 PATH 를 직접 적어 주면 된다. 실행 결과는 리다이렉트로 파일에 남겨 두어야 다음에 원인을 찾기 쉽다.",
 "/usr/local/bin", "/opt/homebrew/bin",
 "cron 의 최소 PATH 때문에 command not found",
 "cron 은 로그인 셸 설정 없이 아주 짧은 PATH 로 돈다. 그래서 /usr/local/bin 에 깐 도구가 터미널에서는 되는데 cron 에서는 command not found 가 난다. 절대 경로로 부르거나 crontab 첫 줄에 PATH 를 지정하고, 출력은 파일로 리다이렉트해 두자.")
item("path-ko-code", "path", "ko", "code",
 "Docker 컨테이너 로그가 디스크를 가득 채움",
 "며칠 돌린 서버의 디스크가 가득 찼는데 원인은 컨테이너 로그였다. 기본 json-file 드라이버는 로그를 회전시키지 않아서 /var/lib/docker/containers 아래 파일이 끝없이 커진다. /etc/docker/daemon.json 에 다음을 넣고 데몬을 재시작하면 새로 만드는 컨테이너부터 적용된다.\n\n```json\n{\n  \"log-driver\": \"json-file\",\n  \"log-opts\": {\"max-size\": \"10m\", \"max-file\": \"3\"}\n}\n```\n\n이미 떠 있는 컨테이너는 다시 만들어야 설정이 반영된다.",
 "/etc/docker/daemon.json", "/etc/docker/config.json",
 "json-file 로그 회전 설정",
 "json-file 드라이버는 기본으로 로그를 돌리지 않아 /var/lib/docker/containers 가 디스크를 채운다. /etc/docker/daemon.json 에 \"log-opts\": {\"max-size\": \"10m\", \"max-file\": \"3\"} 를 넣고 데몬을 재시작하자. 기존 컨테이너는 다시 만들어야 적용된다.")
item("path-en-win", "path", "en", "prose",
 "npm global packages missing for a Windows service account",
 "A build agent running as a Windows service could not find a CLI that was installed globally with npm on the same machine. npm on Windows installs global packages under %APPDATA%\\npm of the user who ran the install, and the service account has its own profile, so its PATH never contains that folder. Install the tool as the service account, or set a shared prefix with npm config set prefix C:\\tools\\npm and add that folder to the system PATH.",
 "C:\\tools\\npm", "C:\\tools\\node",
 "Global npm installs are per user on Windows",
 "Globally installed npm CLIs were invisible to our build agent service: on Windows they land in %APPDATA%\\npm of whoever installed them, and the service account's PATH does not include it. Either install as the service account, or run npm config set prefix C:\\tools\\npm and put that folder on the system PATH.")

# ---- config_key ----
item("ck-en-prose", "config_key", "en", "prose",
 "Redis refuses writes at its memory limit instead of evicting",
 "A cache Redis started answering writes with an OOM error once it reached its memory limit, instead of dropping old keys. The instance had maxmemory set but maxmemory-policy left at noeviction, the default, which refuses writes rather than evicting anything. Setting maxmemory-policy to allkeys-lru in redis.conf, or with CONFIG SET at runtime, made Redis drop the least recently used keys and the errors stopped; volatile-lru would only consider keys that have a TTL.",
 "maxmemory-policy", "maxmemory-samples",
 "noeviction default makes a full Redis cache reject writes",
 "With maxmemory set and maxmemory-policy still noeviction (the default), Redis answers writes with OOM errors at the limit rather than evicting. For a cache, set maxmemory-policy to allkeys-lru (redis.conf or CONFIG SET); volatile-lru only evicts keys with a TTL.")
item("ck-en-code", "config_key", "en", "code",
 "Nginx closes idle WebSocket connections after a minute",
 "WebSocket connections through nginx closed every 60 seconds when no messages were sent, and clients had to reconnect. The proxied connection is subject to proxy_read_timeout, which defaults to 60s, and an idle socket looks like a slow upstream. Raising it in the location that proxies the socket fixed it:\n\n```nginx\nlocation /ws/ {\n    proxy_pass http://app;\n    proxy_http_version 1.1;\n    proxy_set_header Upgrade $http_upgrade;\n    proxy_set_header Connection \"upgrade\";\n    proxy_read_timeout 3600s;\n}\n```\n\nSending a ping from the server every 30 seconds keeps the connection alive without a long timeout.",
 "proxy_read_timeout", "proxy_send_timeout",
 "WebSockets behind nginx drop after 60s of silence",
 "Idle WebSockets proxied by nginx are cut after 60 seconds because proxy_read_timeout defaults to 60s. Set `proxy_read_timeout 3600s;` in the /ws/ location (with proxy_http_version 1.1 and the Upgrade and Connection headers), or have the server ping every 30 seconds.")
item("ck-ko-prose", "config_key", "ko", "prose",
 "밤새 쉬던 애플리케이션의 MySQL 연결이 끊겨 있음",
 "밤새 쉬던 애플리케이션이 아침 첫 요청에서 MySQL server has gone away 오류를 냈다. 서버의 wait_timeout 기본값이 28800 초라서, 그동안 아무 쿼리도 보내지 않은 연결은 서버 쪽에서 닫힌다. 커넥션 풀의 최대 수명을 그보다 짧게 잡거나, 연결을 빌려줄 때 검사하도록 설정하면 끊긴 연결을 재사용하지 않는다. 서버 값을 늘리는 것보다 풀 설정을 고치는 쪽이 안전하다.",
 "wait_timeout", "interactive_timeout",
 "MySQL server has gone away: 풀 수명을 wait_timeout 보다 짧게",
 "아침 첫 요청마다 MySQL server has gone away 가 났다면, 쉬는 연결을 서버가 wait_timeout(기본 28800 초) 뒤에 닫았기 때문이다. 서버 값을 늘리기보다 커넥션 풀의 최대 수명을 그보다 짧게 두거나 대여 시 검사를 켜자.")
item("ck-ko-code", "config_key", "ko", "code",
 "스탠바이 복구 후 WAL 세그먼트가 없어 복제가 멈춤",
 "스탠바이가 한동안 끊겼다가 돌아오자 requested WAL segment has already been removed 오류로 복제가 멈췄다. 프라이머리가 스탠바이가 아직 읽지 않은 WAL 을 지워 버린 것이다. postgresql.conf 에서 보존할 양을 늘리거나 복제 슬롯을 쓰면 된다.\n\n```ini\nwal_keep_size = 2GB\nmax_slot_wal_keep_size = 20GB\n```\n\n슬롯만 쓰면 스탠바이가 오래 죽어 있을 때 디스크가 가득 찰 수 있으니 상한을 함께 둔다.",
 "max_slot_wal_keep_size", "max_wal_size",
 "requested WAL segment has already been removed 대처",
 "오래 끊겼던 스탠바이가 requested WAL segment has already been removed 로 멈추면, 프라이머리가 필요한 WAL 을 이미 지운 것이다. `wal_keep_size = 2GB` 로 보존량을 늘리거나 복제 슬롯을 쓰되, 디스크가 차지 않게 `max_slot_wal_keep_size = 20GB` 같은 상한을 건다.")

# ---- flag ----
item("flag-en-prose", "flag", "en", "prose",
 "git clean in CI deleted the ignored dependency cache",
 "Running the cleanup step in CI also deleted the downloaded dependency cache that the next job needed. The step ran git clean -fdx, which removes ignored files as well as untracked ones, including the cache directory listed in .gitignore. Use git clean -fd to keep ignored files, or exclude the cache with -e, and always try a dry run with -n first to see what would be deleted.",
 "-fdx", "-fd",
 "git clean -fdx removes ignored files too",
 "Our CI cleanup wiped the dependency cache the next job relied on, because git clean -fdx also deletes files matched by .gitignore. git clean -fd leaves ignored files alone; -e excludes a path, and -n shows what would go first.")
item("flag-en-code", "flag", "en", "code",
 "curl health check reports healthy while the app answers 500",
 "A container health check that ran curl against the status endpoint kept reporting healthy while the app answered 500 to everything. curl exits with 0 whenever it gets any HTTP response; only transport errors fail it. Add --fail so that a status of 400 or more makes curl exit with 22:\n\n```dockerfile\nHEALTHCHECK --interval=30s --timeout=3s CMD curl --fail --silent http://localhost:8080/health || exit 1\n```\n\nWith --fail-with-body (curl 7.76 and later) the response body is still printed, which helps in logs.",
 "--silent", "--verbose",
 "Docker HEALTHCHECK with curl needs --fail",
 "curl returns 0 for any HTTP status, so `curl --silent http://localhost:8080/health` in a HEALTHCHECK passes even on a 500. With --fail, statuses of 400 and above exit 22 and the check fails: `HEALTHCHECK --interval=30s --timeout=3s CMD curl --fail --silent http://localhost:8080/health || exit 1`. curl 7.76+ has --fail-with-body to keep the body.")
item("flag-ko-prose", "flag", "ko", "prose",
 "CI 에서 npm install 이 로컬과 다른 버전을 설치함",
 "CI 에서 npm install 로 의존성을 설치하자 로컬과 다른 하위 버전이 깔려 테스트가 깨졌다. npm install 은 범위 안에서 lock 파일을 갱신할 수 있지만 npm ci 는 package-lock.json 그대로 설치하고 맞지 않으면 실패한다. CI 에서는 npm ci 를 쓰고, 피어 의존성 충돌로 설치가 막히면 원인을 먼저 고치고 마지막 수단으로만 --legacy-peer-deps 를 붙인다. 이 옵션은 피어 의존성 검사를 건너뛰므로 숨은 충돌이 남을 수 있다.",
 "--legacy-peer-deps", "--force",
 "CI 에서는 npm install 대신 npm ci",
 "npm install 은 lock 파일을 고쳐 다른 하위 버전을 깔 수 있어서 CI 테스트가 로컬과 달라진다. npm ci 는 package-lock.json 을 그대로 따르고 어긋나면 실패하니 CI 에는 그걸 쓰자. 피어 의존성 충돌은 원인부터 고치고, --legacy-peer-deps 는 검사를 건너뛰는 최후의 수단이다.")
item("flag-ko-code", "flag", "ko", "code",
 "rsync 백업에 원본에서 지운 파일이 계속 남음",
 "백업 서버로 매일 동기화하는데 원본에서 지운 파일이 대상에 계속 남아 용량이 늘었다. rsync 는 기본적으로 대상에만 있는 파일을 지우지 않는다. 아래처럼 --delete 를 붙이면 원본에 없는 파일을 대상에서 지운다.\n\n```sh\nrsync -a --delete /srv/data/ backup:/srv/data/\n```\n\n경로 끝의 슬래시 유무에 따라 디렉터리째 복사되는지가 달라지니, 처음에는 -n 으로 시험 삼아 돌려 보고 확인하는 게 좋다.",
 "-a", "-r",
 "rsync --delete 로 대상의 남은 파일 정리",
 "rsync 는 원본에서 사라진 파일을 대상에서 지우지 않아 백업 용량이 계속 는다. `rsync -a --delete /srv/data/ backup:/srv/data/` 처럼 --delete 를 주면 정리된다. 끝 슬래시에 따라 결과가 달라지므로 먼저 -n 으로 확인하자.")

# ---- error_string ----
item("err-en-prose", "error_string", "en", "prose",
 "Large uploads through the load balancer fail midway",
 "Large uploads from the mobile app failed after about a minute with connection reset by peer in the client logs, while small ones went through. The load balancer in front of the API closes a connection whose request body has not finished within its idle timeout, and slow mobile networks took longer than that to send a large video. Raising the idle timeout on the load balancer and switching the app to chunked, resumable uploads stopped the failures.",
 "connection reset by peer", "upstream prematurely closed connection",
 "Load balancer idle timeout cuts slow mobile uploads",
 "Slow mobile networks needed more than the load balancer's idle timeout to send large videos, so the balancer closed the connection and the app logged connection reset by peer; small uploads were fine. Fixed by raising the idle timeout and moving to chunked, resumable uploads.")
item("err-en-code", "error_string", "en", "code",
 "Python requests fails behind a TLS-inspecting proxy",
 "Scripts that call an internal HTTPS service failed on office machines with `SSLError: certificate verify failed: unable to get local issuer certificate`, while the same script worked from home. The corporate proxy re-signs TLS traffic with its own root CA, which the operating system trusts but requests does not, since it ships its own CA bundle from certifi. Point requests at a bundle that includes the corporate root:\n\n```sh\nexport REQUESTS_CA_BUNDLE=/etc/ssl/certs/ca-certificates.crt\n```\n\nTurning verification off with verify=False hides the problem and is not a fix.",
 "unable to get local issuer certificate", "self signed certificate in certificate chain",
 "REQUESTS_CA_BUNDLE for a corporate root CA",
 "On the office network requests raised `SSLError: certificate verify failed: unable to get local issuer certificate` because the proxy re-signs TLS with a corporate root that certifi's bundle lacks. `export REQUESTS_CA_BUNDLE=/etc/ssl/certs/ca-certificates.crt` uses the system store; verify=False is no fix.")
item("err-ko-prose", "error_string", "ko", "prose",
 "Windows 빌드 에이전트에서 아티팩트 복사 실패",
 "야간 빌드가 결과물을 공유 폴더로 복사하는 단계에서 자주 실패했고, 로그에는 액세스가 거부되었습니다 라는 메시지만 남았다. 빌드 에이전트 서비스가 로컬 시스템 계정으로 돌고 있어서, 네트워크 공유에는 컴퓨터 계정으로 접근하게 되고 공유 폴더 권한에 그 계정이 없었다. 서비스 실행 계정을 공유 폴더에 쓰기 권한이 있는 도메인 계정으로 바꾸자 복사가 성공했다.",
 "액세스가 거부되었습니다", "디스크 공간이 부족합니다",
 "로컬 시스템 계정으로 도는 빌드 에이전트의 공유 폴더 복사 오류",
 "빌드 에이전트가 로컬 시스템 계정으로 돌면 네트워크 공유에는 컴퓨터 계정으로 접근한다. 공유 폴더 권한에 그 계정이 없어서 결과물 복사가 액세스가 거부되었습니다 로 실패했다. 쓰기 권한이 있는 도메인 계정으로 서비스를 돌리면 된다.")
item("err-ko-code", "error_string", "ko", "code",
 "Gradle 빌드가 dex 단계에서 메모리 부족으로 끝남",
 "모듈이 많은 안드로이드 프로젝트를 CI 에서 빌드하면 dex 단계에서 멈췄다가 다음 오류로 끝났다.\n\n```\nExpiring Daemon because JVM heap space is exhausted\n```\n\nGradle 데몬의 기본 힙이 작아서 큰 프로젝트를 감당하지 못한 것이다. gradle.properties 에 org.gradle.jvmargs=-Xmx4g 를 넣어 힙을 늘리자 빌드가 끝까지 돌았다. CI 러너의 메모리보다 크게 잡으면 이번에는 러너가 프로세스를 죽이니 여유를 남겨야 한다.",
 "Expiring Daemon because JVM heap space is exhausted", "GC overhead limit exceeded",
 "Gradle 데몬 힙 늘리기: org.gradle.jvmargs",
 "CI 빌드가 Expiring Daemon because JVM heap space is exhausted 로 끝나면 Gradle 데몬 힙이 모자란 것이다. gradle.properties 에 org.gradle.jvmargs=-Xmx4g 를 주면 된다. 러너 메모리보다 크게 잡으면 러너가 프로세스를 죽이니 여유를 두자.")

# ---- error_code ----
item("ec-en-prose", "error_code", "en", "prose",
 "Test container killed with exit code 137",
 "The integration test container stopped in the middle of a run with exit code 137 and no stack trace in its logs. 137 is 128 plus 9: the process got SIGKILL, which on Kubernetes and Docker almost always means the kernel's OOM killer or the memory limit of the cgroup. kubectl describe pod shows OOMKilled as the last state's reason; raise the memory limit or cap the JVM heap below it with -XX:MaxRAMPercentage.",
 "137", "143",
 "Exit code 137 without a stack trace means OOMKilled",
 "When a container dies with exit code 137 and logs nothing, it was sent SIGKILL (128 + 9), nearly always by the OOM killer or its cgroup memory limit. Confirm with kubectl describe pod (last state OOMKilled), then raise the limit or keep the JVM heap under it via -XX:MaxRAMPercentage.")
item("ec-en-code", "error_code", "en", "code",
 "MySQL dump restore stops at a duplicate key",
 "Restoring a dump into a database that already held part of the data stopped at the first conflicting row:\n\n```\nERROR 1062 (23000) at line 4182: Duplicate entry '17' for key 'PRIMARY'\n```\n\nThe dump's plain INSERT statements fail on rows that exist. Either restore into an empty schema, or regenerate the dump with mysqldump --insert-ignore, or with --replace if the dump's rows should win; check the row counts afterwards, since both options hide conflicts.",
 "1062", "1452",
 "Restoring over existing rows: ERROR 1062 duplicate entry",
 "A restore into a partly filled database stops with `ERROR 1062 (23000) ... Duplicate entry '17' for key 'PRIMARY'` because plain INSERTs hit existing rows. Use an empty schema, or dump again with mysqldump --insert-ignore (or --replace to let the dump win), and compare row counts afterwards.")
item("ec-ko-prose", "error_code", "ko", "prose",
 "nginx 접근 로그에 499 가 많이 찍힘",
 "nginx 접근 로그에 상태 코드 499 가 하루 수천 건씩 찍혔지만 애플리케이션 로그에는 오류가 없었다. 499 는 nginx 만 쓰는 코드로, 업스트림이 응답하기 전에 클라이언트가 먼저 연결을 끊었다는 뜻이다. 대부분 느린 API 를 기다리던 모바일 앱이나 앞단 로드밸런서의 타임아웃이 원인이므로, 느린 요청을 찾아 고치거나 클라이언트 쪽 타임아웃을 업스트림 처리 시간보다 길게 맞춘다.",
 "499", "504",
 "상태 코드 499 는 클라이언트가 먼저 끊은 것",
 "nginx 의 499 는 업스트림 응답 전에 클라이언트가 연결을 닫았다는 nginx 전용 코드라서 앱 로그에는 아무것도 없다. 보통 느린 API 를 기다리다 포기한 모바일 앱이나 앞단 로드밸런서 타임아웃 때문이니, 느린 요청을 고치거나 클라이언트 타임아웃을 업스트림 처리 시간보다 길게 잡자.")
item("ec-ko-code", "error_code", "ko", "code",
 "MSI 설치가 일부 PC 에서 1603 으로 실패",
 "사내 배포 도구로 MSI 를 설치하면 일부 PC 에서만 실패했고 결과 코드는 1603 이었다. 1603 은 설치 중 치명적 오류라는 뜻일 뿐이라 원인은 자세한 로그를 봐야 한다.\n\n```bat\nmsiexec /i agent.msi /qn /l*v C:\\Temp\\agent-install.log\n```\n\n로그에서 return value 3 을 검색하면 바로 앞줄에 실패한 동작이 나온다. 이번에는 이전 버전이 남긴 서비스가 지워지지 않은 것이 원인이었다.",
 "1603", "1618",
 "MSI 1603 오류는 자세한 로그로 원인 찾기",
 "MSI 설치 결과 1603 은 치명적 오류라는 것만 알려 준다. `msiexec /i agent.msi /qn /l*v C:\\Temp\\agent-install.log` 로 자세한 로그를 남기고 return value 3 을 찾으면 바로 위에 실패한 동작이 있다. 우리 경우는 이전 버전 서비스가 남아 있던 것이 원인이었다.")

# ---- config_value ----
item("cv-en-prose", "config_value", "en", "prose",
 "New Kafka consumer group skips the backlog",
 "A new consumer group for an audit service never saw the events that had been written before its first deploy. With no committed offsets, a consumer starts at the position that auto.offset.reset names, and the client default is latest, so the group began at the end of each partition and skipped the backlog. Setting auto.offset.reset to earliest before the group's first start made it read the topics from the beginning; once offsets are committed the setting no longer matters.",
 "earliest", "none",
 "auto.offset.reset=earliest for a group that must read history",
 "Our new audit consumer group missed everything produced before it first ran: without committed offsets the client falls back to auto.offset.reset, whose default latest starts at the end of the partition. Set auto.offset.reset to earliest before the first start; after offsets are committed it has no effect.")
item("cv-en-code", "config_value", "en", "code",
 "Shell scripts show as modified after cloning on Windows",
 "After cloning a repository on Windows, git status listed every shell script as modified although nobody had touched them. The global setting converted line endings to CRLF on checkout, and the scripts were committed with LF. A .gitattributes file in the repository makes the choice per path for every clone, whatever each user's config says:\n\n```\n* text=auto\n*.sh text eol=lf\n*.bat text eol=crlf\n```\n\nRun git add --renormalize . once after adding it, and commit the result.",
 "eol=lf", "eol=crlf",
 "Pin line endings per path with .gitattributes",
 "Windows clones converted our LF shell scripts to CRLF, so git status showed them all modified. A .gitattributes with `* text=auto`, `*.sh text eol=lf` and `*.bat text eol=crlf` fixes it for every clone regardless of user config; run git add --renormalize . once and commit.")
item("cv-ko-prose", "config_value", "ko", "prose",
 "같은 태그로 올린 이미지가 파드에 반영되지 않음",
 "같은 latest 태그로 새 이미지를 올렸는데 파드를 다시 만들어도 예전 코드가 돌았다. 노드에 이미 같은 태그의 이미지가 있으면 imagePullPolicy 가 IfNotPresent 일 때 kubelet 이 레지스트리에서 다시 받지 않는다. 매번 받게 하려면 imagePullPolicy 를 Always 로 설정하거나, 더 나은 방법으로 커밋 해시 같은 고유한 태그를 배포마다 붙인다. 태그를 고정하면 롤백할 때도 어떤 버전이 돌았는지 분명하다.",
 "Always", "IfNotPresent",
 "imagePullPolicy IfNotPresent 와 latest 태그",
 "latest 처럼 같은 태그로 다시 푸시하면, 노드에 그 태그 이미지가 있는 한 imagePullPolicy 가 IfNotPresent 인 kubelet 은 새로 받지 않아서 옛 코드가 뜬다. imagePullPolicy 를 Always 로 설정하는 방법도 있지만 배포마다 커밋 해시 태그를 쓰는 편이 롤백에도 낫다.")
item("cv-ko-code", "config_value", "ko", "code",
 "PostgreSQL 연결이 SSL 없이 평문으로 맺어짐",
 "보안 점검에서 애플리케이션과 데이터베이스 사이 트래픽이 평문으로 오간다는 지적을 받았다. 드라이버의 기본 sslmode 는 prefer 라서 서버가 SSL 을 받지 않으면 조용히 평문으로 붙는다. 연결 문자열에 다음처럼 적어 인증서까지 검증하게 했다.\n\n```\npostgresql://app@db.internal:5432/orders?sslmode=verify-full&sslrootcert=/etc/ssl/db-ca.pem\n```\n\n서버의 pg_hba.conf 에도 hostssl 만 허용하도록 바꿔야 클라이언트 설정이 빠져도 평문 연결이 막힌다.",
 "verify-full", "require",
 "sslmode 기본값 prefer 는 평문으로 떨어질 수 있다",
 "기본 sslmode=prefer 는 서버가 SSL 을 안 받으면 조용히 평문으로 연결한다. 연결 문자열에 `?sslmode=verify-full&sslrootcert=/etc/ssl/db-ca.pem` 을 붙여 인증서를 검증하고, 서버 pg_hba.conf 는 hostssl 만 허용하자.")
item("cv-en-mount", "config_value", "en", "prose",
 "A container rewrote the shared config directory",
 "The proxy container rewrote its own configuration on start, so a mistake in the template ended up in the shared config directory and broke the other replicas. Mounting the directory read-only stops the container from changing anything there: the entrypoint's write fails loudly instead of corrupting the shared copy. In compose that is the ro option on the volume, and in Kubernetes the readOnly field of the volume mount.",
 "read-only", "read-write",
 "Mount shared configuration read-only",
 "One replica's entrypoint rewrote the shared config directory from a broken template and took down the others. With the directory mounted read-only the write fails loudly instead; use ro on the compose volume or readOnly on the Kubernetes volume mount.")

# ---- port ----
item("port-en-prose", "port", "en", "prose",
 "Prometheus shows a new host down although node_exporter runs",
 "A newly added host showed as down in Prometheus with context deadline exceeded, although node_exporter was running and answered locally. The host's firewall only allowed SSH and HTTPS from the monitoring network, and node_exporter listens on 9100, so the scrape timed out at the firewall. Opening 9100 for the Prometheus server's address, not for everyone, brought the target up; the exporter serves unauthenticated metrics that reveal a lot about the host.",
 "9100", "9090",
 "Firewall blocks node_exporter scrapes",
 "context deadline exceeded for a new target while node_exporter answered on the host itself: the firewall let only SSH and HTTPS in, and node_exporter listens on 9100. Allow 9100 from the Prometheus server only, since the metrics are unauthenticated.")
item("port-en-code", "port", "en", "code",
 "Actuator probes return 404 after moving management to its own port",
 "Health checks from the ingress returned 404 after the actuator was moved to its own port for security. With management.server.port set, actuator endpoints are served on that port only, while the probes still went to the application port:\n\n```yaml\nserver:\n  port: 8080\nmanagement:\n  server:\n    port: 8081\n  endpoints:\n    web:\n      exposure:\n        include: health,info\n```\n\nPoint the readiness and liveness probes at 8081, and keep that port out of the public ingress.",
 "8081", "9001",
 "management.server.port moves actuator off the app port",
 "Once management.server.port is set (8081 here, app on 8080), /actuator endpoints exist only there, so probes hitting 8080 get 404. Send the readiness and liveness probes to 8081 and do not expose it through the public ingress.")
item("port-ko-prose", "port", "ko", "prose",
 "Sentinel 장애 조치 뒤에도 클라이언트가 옛 마스터에 씀",
 "장애 조치가 끝났는데도 일부 서버가 계속 예전 마스터로 쓰기를 시도해 READONLY 오류가 났다. 그 서버들은 Sentinel 이 아니라 마스터 주소를 6379 포트로 직접 설정해 두었기 때문에 새 마스터를 알 방법이 없었다. 클라이언트가 Sentinel 에 26379 포트로 붙어 현재 마스터를 물어보도록 바꾸고, 방화벽에서도 Sentinel 포트를 열어 주었다.",
 "26379", "16379",
 "Redis 클라이언트는 Sentinel 에 물어 마스터를 찾아야 한다",
 "마스터 주소를 6379 로 직접 박아 둔 서버들은 장애 조치 뒤에도 옛 마스터에 쓰다가 READONLY 오류를 받았다. 클라이언트를 Sentinel(26379 포트)에 연결해 현재 마스터를 조회하게 하고, 방화벽에서 그 포트도 열자.")
item("port-ko-code", "port", "ko", "code",
 "로컬 Postgres 가 있는 PC 에서 컨테이너 DB 에 접속이 안 됨",
 "개발 PC 에 이미 PostgreSQL 이 설치돼 있는 상태에서 컨테이너를 띄웠더니 애플리케이션이 컨테이너가 아닌 로컬 DB 에 붙어 인증 오류가 났다. 호스트의 5432 포트를 이미 로컬 서버가 쓰고 있었기 때문이다. compose 파일에서 호스트 쪽 포트를 바꾸고 접속 문자열도 맞춰 준다.\n\n```yaml\nservices:\n  db:\n    image: postgres:16\n    ports:\n      - \"5433:5432\"\n```\n\n애플리케이션에서는 localhost:5433 으로 접속하면 컨테이너의 DB 에 붙는다.",
 "5433", "5434",
 "호스트 5432 충돌: 컨테이너 포트를 5433 으로 매핑",
 "로컬에 PostgreSQL 이 깔린 PC 는 호스트 5432 를 이미 쓰고 있어서, 앱이 컨테이너 대신 로컬 DB 에 붙고 인증 오류가 난다. compose 에서 `\"5433:5432\"` 로 매핑하고 localhost:5433 으로 접속하자.")


# ---- batch 2: written after batch 1's rules landed, measured once before
# any change for it (an honest estimate of what batch 1 taught) ----
ITEMS2 = []
def item2(*a):
    ITEMS2.append(a)

item2("b2-num-en-yaml", "number", "en", "code",
 "HPA never scales past three pods under load",
 "During the sale the checkout deployment stayed at three pods while CPU sat at 95 percent, and latency climbed. The HorizontalPodAutoscaler was doing its job; its upper bound was the limit:\n\n```yaml\nspec:\n  minReplicas: 2\n  maxReplicas: 3\n  metrics:\n  - type: Resource\n    resource:\n      name: cpu\n      target:\n        type: Utilization\n        averageUtilization: 70\n```\n\nRaise maxReplicas to what the node pool can hold, and check the cluster autoscaler's node group maximum too, or new pods stay pending.",
 "maxReplicas: 3", "maxReplicas: 30",
 "maxReplicas caps the autoscaler during traffic peaks",
 "Checkout stuck at three pods with CPU at 95 percent: the HPA had `maxReplicas: 3` (minReplicas 2, averageUtilization 70). Set maxReplicas to what the node pool fits and raise the node group maximum of the cluster autoscaler as well, otherwise extra pods remain pending.")
item2("b2-num-ko-prose", "number", "ko", "prose",
 "JVM 컨테이너가 메모리 제한에 걸려 재시작됨",
 "메모리 제한을 2GiB 로 둔 컨테이너의 자바 서비스가 부하가 걸리면 OOMKilled 로 재시작됐다. JDK 11 이후의 JVM 은 컨테이너 제한을 읽지만 기본 최대 힙은 제한의 25 퍼센트뿐이고, 우리는 -Xmx 를 따로 줘서 힙만 1800m 으로 잡아 두었다. 힙 밖의 메타스페이스, 스레드 스택, 다이렉트 버퍼가 나머지를 넘긴 것이다. -Xmx 대신 MaxRAMPercentage 를 75 정도로 두면 힙 밖 메모리를 위한 여유가 남는다.",
 "75", "90",
 "컨테이너에서는 -Xmx 대신 MaxRAMPercentage",
 "2GiB 제한 컨테이너에서 -Xmx 로 힙을 1800m 까지 잡으니 메타스페이스, 스레드 스택, 다이렉트 버퍼 같은 힙 밖 메모리 때문에 OOMKilled 가 났다. JDK 11+ 는 기본 힙을 제한의 25 퍼센트로 잡는데, MaxRAMPercentage 를 75 정도로 주면 힙 밖 메모리 몫이 남는다.")
item2("b2-ver-en-prose", "version", "en", "prose",
 "Terraform state written by a newer CLI breaks an older pipeline",
 "After one engineer ran terraform apply locally with Terraform 1.6, the CI pipeline, still pinned to 1.5, refused every plan because the state file had been written by a newer version. State is forward-only: an older CLI will not read state that a newer one upgraded. Pin the version for everyone with a required_version constraint and a .terraform-version file, and upgrade CI before anyone applies with the new release.",
 "1.6", "1.4",
 "Pin Terraform so a local apply cannot upgrade the state",
 "Someone applied with Terraform 1.6 on a laptop, and CI on 1.5 then failed every plan: state upgraded by a newer CLI cannot be read by an older one. Pin the version (required_version plus a .terraform-version file) and move CI to the new release before anyone applies with it.")
item2("b2-ver-ko-code", "version", "ko", "code",
 "Go 모듈에서 toolchain 줄이 추가되어 빌드가 멈춤",
 "로컬에서 go get 을 한 뒤 go.mod 에 toolchain 줄이 생겼고, 사내 CI 의 오래된 Go 가 새 툴체인을 내려받으려다 프록시 차단으로 실패했다.\n\n```\ngo 1.21\ntoolchain go1.22.3\n```\n\nGo 1.21 부터 go 줄은 최소 요구 버전이고, toolchain 줄이 더 높으면 go 명령이 그 버전을 받아서 다시 실행한다. CI 의 Go 를 맞춰 올리거나, 사내 환경에서는 GOTOOLCHAIN=local 로 자동 다운로드를 끄면 된다.",
 "go1.22.3", "go1.23.1",
 "toolchain 줄 때문에 CI 가 새 Go 를 받으려 함",
 "go.mod 에 `toolchain go1.22.3` 이 붙으면 Go 1.21 이상의 go 명령은 그 툴체인을 내려받아 재실행하려 한다. 프록시가 막힌 CI 에서는 그 다운로드가 실패하니, CI 의 Go 를 올리거나 GOTOOLCHAIN=local 로 자동 다운로드를 끈다.")
item2("b2-id-en-prose", "identifier", "en", "prose",
 "Event handler runs twice after a React component re-renders",
 "Clicking save sent two requests after we moved the listener setup into a custom hook. The hook added the listener with window.addEventListener inside an effect but its cleanup called removeEventListener with a new arrow function, which never matches the one registered, so every re-render stacked another listener. Keep the handler in a variable, or in a ref, and pass that same function to both calls.",
 "removeEventListener", "dispatchEvent",
 "removeEventListener needs the same function object",
 "Our save button fired twice because the custom hook's cleanup passed a fresh arrow function to removeEventListener, which matches nothing, so window.addEventListener piled up listeners on every re-render. Store the handler (variable or ref) and pass the identical function to both.")
item2("b2-id-ko-prose", "identifier", "ko", "prose",
 "Postgres 에서 정렬 순서가 운영과 개발이 다름",
 "같은 쿼리의 ORDER BY 결과가 개발 PC 와 운영 DB 에서 달랐다. 운영 DB 는 ko_KR.UTF-8 콜레이션으로 만들어졌고 개발용 컨테이너는 C 콜레이션이어서 대소문자와 한글의 정렬 규칙이 달랐던 것이다. 컨테이너를 만들 때 같은 로케일로 initdb 하거나, 정렬이 중요한 컬럼에 COLLATE 를 명시하면 환경마다 결과가 같아진다.",
 "ko_KR.UTF-8", "en_US.UTF-8",
 "콜레이션 차이로 ORDER BY 결과가 달라짐",
 "운영은 ko_KR.UTF-8, 개발 컨테이너는 C 콜레이션이라 ORDER BY 정렬이 서로 달랐다. 같은 로케일로 initdb 하거나 중요한 컬럼에 COLLATE 를 적어 두자.")
item2("b2-path-en-code", "path", "en", "code",
 "SSH agent forwarding works in a terminal but not in VS Code",
 "git pull over SSH worked in a terminal but failed with Permission denied (publickey) from the editor's integrated terminal on the same machine. The editor had been started from the desktop, whose environment lacked the agent socket, so SSH_AUTH_SOCK was empty there. Pointing SSH at the agent explicitly in the client config fixed both:\n\n```\nHost github.com\n  IdentityAgent ~/.1password/agent.sock\n```\n\nssh -v shows which agent and which keys were offered.",
 "~/.1password/agent.sock", "~/.ssh/agent.sock",
 "Set IdentityAgent when the editor lacks SSH_AUTH_SOCK",
 "The integrated terminal of an editor launched from the desktop had no SSH_AUTH_SOCK, so git pull got Permission denied (publickey) while a normal terminal worked. Adding `IdentityAgent ~/.1password/agent.sock` under Host github.com in the SSH config made both work; ssh -v lists the keys offered.")
item2("b2-path-ko-prose", "path", "ko", "prose",
 "맥에서 Homebrew 로 설치한 도구가 빌드 스크립트에서 안 보임",
 "애플 실리콘 맥에서 Homebrew 로 설치한 protoc 을 빌드 스크립트가 찾지 못했다. 인텔 맥과 달리 애플 실리콘에서는 Homebrew 가 /opt/homebrew 아래에 설치되는데, 스크립트가 옛날 경로를 직접 적어 두고 있었다. 경로를 적지 말고 brew --prefix 로 구하거나 셸 설정에 brew shellenv 를 넣어 PATH 를 맞추는 게 안전하다.",
 "/opt/homebrew", "/usr/local/homebrew",
 "애플 실리콘의 Homebrew 경로는 /opt/homebrew",
 "애플 실리콘 맥에서는 Homebrew 가 /opt/homebrew 에 깔려서, 옛 경로를 박아 둔 빌드 스크립트가 protoc 을 못 찾았다. brew --prefix 로 경로를 구하거나 brew shellenv 로 PATH 를 설정하자.")
item2("b2-ck-en-json", "config_key", "en", "code",
 "TypeScript path aliases work in the editor but fail at runtime",
 "Imports such as @app/db compiled and resolved in the editor, but node crashed at start with Cannot find module '@app/db'. The aliases were declared in tsconfig.json, which only tells the compiler how to resolve them; tsc does not rewrite the import strings in its output:\n\n```json\n{\n  \"compilerOptions\": {\n    \"baseUrl\": \"src\",\n    \"paths\": {\"@app/*\": [\"*\"]}\n  }\n}\n```\n\nUse a bundler, tsc-alias after the build, or Node's own subpath imports in package.json so the runtime resolves them too.",
 "\"paths\"", "\"rootDirs\"",
 "tsconfig paths are not rewritten by tsc",
 "Node failed with Cannot find module '@app/db' although the editor resolved it: `\"paths\": {\"@app/*\": [\"*\"]}` with `\"baseUrl\": \"src\"` in tsconfig.json only guides the compiler, and tsc leaves the import strings as they are. Bundle, run tsc-alias after building, or use package.json subpath imports.")
item2("b2-ck-ko-prose", "config_key", "ko", "prose",
 "Elasticsearch 검색 결과가 1만 건 이후로 안 나옴",
 "관리 화면에서 검색 결과를 페이지로 넘기다 보면 1만 건을 넘는 순간 Result window is too large 오류가 났다. from 과 size 로 페이지를 넘기는 방식은 index.max_result_window 를 넘을 수 없고 기본값은 10000 이다. 값을 키우면 메모리를 많이 쓰므로, 깊은 페이지는 search_after 와 정렬 키를 이용하고 전체를 내보낼 때는 point in time 과 함께 쓰는 편이 낫다.",
 "index.max_result_window", "index.max_inner_result_window",
 "Result window is too large: search_after 로 깊은 페이지 넘기기",
 "from 과 size 로 1만 건을 넘겨 넘기면 index.max_result_window(기본 10000) 때문에 Result window is too large 가 난다. 값을 올리기보다 search_after 와 정렬 키로 넘기고, 전체 내보내기에는 point in time 을 함께 쓰자.")
item2("b2-flag-en-prose", "flag", "en", "prose",
 "docker build keeps using a stale base image",
 "A security fix in the upstream base image never reached our images although CI rebuilt them every night. The builder reused its cached copy of the base tag because nothing in the Dockerfile had changed, so the FROM layer was never fetched again. Adding --pull to the nightly docker build makes the builder check the registry for a newer base image each time; --no-cache alone would rebuild every layer but still use the local base.",
 "--pull", "--squash",
 "Nightly builds need docker build --pull",
 "Nightly CI rebuilds kept an outdated base image because the builder took the cached base tag when the Dockerfile was unchanged. docker build --pull checks the registry for a newer base every run; --no-cache rebuilds the layers but keeps the local base.")
item2("b2-flag-ko-code", "flag", "ko", "code",
 "kubectl 로 지운 파드가 Terminating 에서 멈춤",
 "노드가 죽은 뒤 그 노드의 파드를 지우자 계속 Terminating 상태로 남았다. kubelet 이 응답하지 않으면 API 서버는 종료 확인을 받지 못해 객체를 지우지 않는다. 노드가 정말 죽었다는 것을 확인한 뒤에만 강제로 지운다.\n\n```sh\nkubectl delete pod api-7d9f --grace-period=0 --force\n```\n\nStatefulSet 파드를 강제로 지우면 같은 이름의 파드가 두 개 뜰 수 있으니 특히 조심한다.",
 "--grace-period=0", "--grace-period=30",
 "죽은 노드의 파드가 Terminating 에 남을 때",
 "kubelet 이 응답하지 않는 노드의 파드는 삭제해도 Terminating 에 머문다. 노드가 죽은 것을 확인했다면 `kubectl delete pod api-7d9f --grace-period=0 --force` 로 지우되, StatefulSet 파드는 같은 이름이 둘 뜰 수 있어 조심하자.")
item2("b2-err-en-prose", "error_string", "en", "prose",
 "Cron job fails only on the first day of the month",
 "A billing export scheduled for midnight failed on the first of each month with relation does not exist in its log, and ran fine on every other day. On that day a maintenance job renamed last month's partition and created the new one a few minutes after midnight, so the export queried a table that was not there yet. Moving the export to run after the partition job, and making it check for the partition first, stopped the monthly failures.",
 "relation does not exist", "deadlock detected",
 "Monthly export ran before the new partition existed",
 "On the first of each month our midnight billing export logged relation does not exist: the maintenance job rotating partitions created the new one a few minutes after midnight. Schedule the export after the partition job and check that the partition exists.")
item2("b2-err-ko-prose", "error_string", "ko", "prose",
 "사내 프록시 뒤에서 npm install 이 인증서 오류로 실패",
 "회사망에서 npm install 을 하면 UNABLE_TO_GET_ISSUER_CERT_LOCALLY 오류로 패키지를 받지 못했다. 사내 프록시가 TLS 를 다시 서명하는데 Node 는 운영체제 인증서 저장소가 아니라 자체 목록을 쓰기 때문이다. 사내 루트 인증서를 파일로 받아 NODE_EXTRA_CA_CERTS 로 지정하면 되고, strict-ssl 을 끄는 것은 해결책이 아니다.",
 "UNABLE_TO_GET_ISSUER_CERT_LOCALLY", "SELF_SIGNED_CERT_IN_CHAIN",
 "NODE_EXTRA_CA_CERTS 로 사내 루트 인증서 추가",
 "프록시가 TLS 를 재서명하는 회사망에서는 Node 가 자체 인증서 목록을 써서 npm install 이 UNABLE_TO_GET_ISSUER_CERT_LOCALLY 로 실패한다. 사내 루트 인증서 파일을 NODE_EXTRA_CA_CERTS 에 지정하자. strict-ssl 끄기는 답이 아니다.")
item2("b2-ec-en-prose", "error_code", "en", "prose",
 "S3 uploads from a new region fail with 301",
 "Uploads from the new Frankfurt workers to an existing bucket failed with status 301 and PermanentRedirect, while the old workers in Virginia were fine. The client was configured for us-east-1 and the bucket lives in eu-central-1; the global endpoint answers a request for a bucket in another region with a redirect that the SDK does not follow for signed requests. Set the client's region to the bucket's region, or look it up once with GetBucketLocation.",
 "301", "403",
 "PermanentRedirect when the client region differs from the bucket's",
 "New workers in Frankfurt got 301 PermanentRedirect uploading to a bucket in eu-central-1 because their client was set to us-east-1; signed requests are not redirected by the SDK. Configure the bucket's region, or find it with GetBucketLocation.")
item2("b2-ec-ko-code", "error_code", "ko", "code",
 "systemd 서비스가 종료 코드 203 으로 시작하지 않음",
 "새로 만든 서비스를 시작하자 바로 실패했고 상태에는 다음이 찍혔다.\n\n```\nMain process exited, code=exited, status=203/EXEC\n```\n\n203 은 systemd 가 ExecStart 의 실행 파일을 실행하지 못했다는 뜻이다. 경로가 절대 경로인지, 실행 권한이 있는지, 스크립트라면 첫 줄의 인터프리터가 있는지 확인한다. 이번에는 스크립트를 Windows 에서 편집해 줄 끝이 CRLF 였던 것이 원인이었다.",
 "203", "217",
 "status=203/EXEC 는 실행 파일을 못 띄운 것",
 "systemd 의 status=203/EXEC 는 ExecStart 실행 파일을 실행하지 못했다는 뜻이다. 절대 경로, 실행 권한, 스크립트 첫 줄 인터프리터를 확인하자. 우리 경우는 Windows 에서 고친 스크립트의 CRLF 줄 끝이 원인이었다.")
item2("b2-cv-en-prose", "config_value", "en", "prose",
 "Images below the fold load late on slow phones",
 "Product images further down the page appeared blank for a second while users scrolled on slow phones. The img tags used loading=lazy, so the browser only started fetching them when they came close to the viewport, and on a slow network that was too late. Keeping lazy loading for the long list but giving the first rows an eager loading attribute and a fetchpriority hint made the visible part fill in at once.",
 "loading=lazy", "loading=eager",
 "loading=lazy images show blank while scrolling on slow networks",
 "On slow phones the product images lower on the page stayed blank during scrolling: with loading=lazy the browser fetches them only near the viewport. Keep lazy for the long list, but load the first rows eagerly with a fetchpriority hint.")
item2("b2-cv-ko-prose", "config_value", "ko", "prose",
 "Nextcloud 파일 업로드가 큰 파일에서만 실패",
 "사진 백업 앱으로 큰 동영상을 올리면 끝까지 가다가 실패했다. PHP 설정의 upload_max_filesize 와 post_max_size 는 충분했지만 웹 서버 앞단의 프록시가 요청 본문을 디스크에 버퍼링하면서 임시 디렉터리가 가득 찼다. 프록시의 요청 버퍼링을 off 로 두고 청크 업로드를 쓰게 하자 큰 파일도 올라갔다.",
 "off", "on",
 "큰 업로드가 프록시 임시 디렉터리를 채울 때",
 "큰 동영상 업로드가 마지막에 실패한 원인은 PHP 의 upload_max_filesize, post_max_size 가 아니라 앞단 프록시가 본문을 디스크에 버퍼링해 임시 디렉터리를 채운 것이었다. 프록시 요청 버퍼링을 off 로 하고 청크 업로드를 쓰면 된다.")
item2("b2-port-en-prose", "port", "en", "prose",
 "Mail from the new server never arrives",
 "Password reset mails from the newly provisioned app server never arrived, and the logs showed connection timeouts to the mail provider. The cloud provider blocks outbound traffic on port 25 for new accounts to fight spam, so the app's plain SMTP connection never got out. Submitting mail to the provider on 587 with STARTTLS and authentication, which is what a client should use anyway, delivered the mails; asking the cloud provider to lift the block is only needed for a real mail server.",
 "587", "2525",
 "Cloud providers block outbound port 25",
 "New app servers could not send password reset mails: outbound port 25 is blocked by the cloud provider on new accounts. Submit to the mail provider on 587 with STARTTLS and auth instead; only a real MTA needs the block lifted.")
item2("b2-port-ko-code", "port", "ko", "code",
 "Vite 개발 서버에 다른 PC 에서 접속이 안 됨",
 "같은 네트워크의 휴대폰으로 개발 중인 화면을 보려 했는데 접속이 되지 않았다. Vite 개발 서버는 기본으로 localhost 에만 바인딩하므로 다른 기기에서는 닿지 않는다. 설정에서 모든 주소에 바인딩하고 포트를 고정해 두면 된다.\n\n```js\nexport default { server: { host: true, port: 5173, strictPort: true } }\n```\n\n방화벽이 그 포트를 막고 있지 않은지도 확인한다.",
 "5173", "4173",
 "다른 기기에서 Vite 개발 서버에 붙으려면 host: true",
 "Vite 개발 서버는 localhost 에만 바인딩해서 휴대폰 같은 다른 기기로는 접속이 안 된다. `server: { host: true, port: 5173, strictPort: true }` 로 설정하고 방화벽에서 포트가 열려 있는지 보자.")


# ---- batch 3: harder forms of the classes (a one-word Korean value, an
# adjective or a verb as a value in prose, a value said elsewhere), written
# after batch 2 was measured, and measured once before any change for it ----
ITEMS3 = []
def item3(*a):
    ITEMS3.append(a)

item3("b3-cv-ko-word", "config_value", "ko", "prose",
 "NFS 로 붙인 공유 디렉터리에 배포 스크립트가 쓰지 못함",
 "배포 서버에서 NFS 로 마운트한 공유 디렉터리에 빌드 결과를 복사하면 권한 오류가 났다. 스토리지 쪽 익스포트 설정이 그 서버에 대해 읽기 전용으로 되어 있었고, 클라이언트에서 마운트 옵션을 바꿔도 서버 설정이 우선한다. 스토리지 관리자에게 해당 서버의 익스포트를 읽기 쓰기로 바꿔 달라고 요청하자 복사가 됐다.",
 "읽기 전용으로", "쓰기 전용으로",
 "NFS 익스포트가 읽기 전용이면 클라이언트 옵션으로는 못 쓴다",
 "NFS 공유 디렉터리에 빌드 결과를 못 쓰던 원인은 스토리지의 익스포트가 그 배포 서버에 대해 읽기 전용으로 되어 있던 것이었다. 서버 설정이 클라이언트 마운트 옵션보다 우선하므로, 익스포트를 읽기 쓰기로 바꿔 달라고 요청해야 한다.")
item3("b3-cv-en-adj", "config_value", "en", "prose",
 "ORM loads every order line when listing customers",
 "The customer list page issued thousands of queries because each customer's orders relationship was configured with eager loading, so listing a page of customers pulled every order and every order line behind it. Switching the relationship to lazy loading and fetching the orders explicitly only on the detail page, with a join where they are needed, brought the page down to two queries.",
 "eager loading", "lazy loading",
 "Eager relationship loading made the customer list slow",
 "Listing customers ran thousands of queries since the orders relationship used eager loading and dragged in every order and line. With lazy loading on the relationship and an explicit join on the detail page only, the list page needs two queries.")
item3("b3-num-en-dup", "number", "en", "prose",
 "Client gives up before the server finishes a slow report",
 "Report downloads failed for the largest customers with a timeout in the browser, although the server finished the export a little later. The frontend's HTTP client aborts after 30 seconds, while the server allows a request 60 seconds before it cancels it, so reports that took between the two were computed and thrown away. Raising the client timeout to 60 seconds matched the two limits; a background job with a download link is the better fix for large reports.",
 "aborts after 30 seconds", "aborts after 60 seconds",
 "Client timeout shorter than the server's wasted slow reports",
 "Large report downloads timed out in the browser while the server still completed them: the frontend HTTP client aborts after 30 seconds but the server lets a request run for 60 seconds. Setting the client timeout to 60 seconds aligned them; for big reports, a background job plus download link is better.")
item3("b3-err-ko-short", "error_string", "ko", "prose",
 "사내 미러에서 패키지 설치가 가끔 실패",
 "사내 패키지 미러를 쓰도록 바꾼 뒤 CI 빌드가 하루 몇 번씩 패키지를 받지 못해 실패했고, 로그에는 연결 시간 초과 만 남았다. 미러 서버 한 대가 디스크 정리 작업 중에 응답을 멈추는데 로드밸런서의 헬스 체크가 포트만 확인해서 그 서버로 계속 요청을 보낸 것이다. 헬스 체크를 실제 패키지 목록을 받아 오는 요청으로 바꾸자 실패가 사라졌다.",
 "연결 시간 초과", "인증서 검증 실패",
 "포트만 보는 헬스 체크 때문에 멈춘 미러로 요청이 감",
 "CI 가 사내 미러에서 패키지를 받다 연결 시간 초과 로 가끔 실패한 것은, 디스크 정리 중 응답을 멈춘 미러 서버를 로드밸런서가 포트만 검사해서 계속 살아 있다고 본 탓이었다. 헬스 체크를 실제 패키지 목록 요청으로 바꾸면 된다.")
item3("b3-id-en-word", "identifier", "en", "prose",
 "Migration locked the wrong table during business hours",
 "A migration meant to add an index to the sessions table ran at noon and blocked logins for several minutes. The index was created without the concurrent option, so the table was locked for writes while the index was built, and every login writes to the sessions table. Build indexes on busy tables concurrently, outside a transaction, and schedule migrations that rewrite or lock a table for a quiet hour.",
 "sessions", "audit",
 "CREATE INDEX without CONCURRENTLY blocked logins",
 "Adding an index to the sessions table at noon blocked logins for minutes: built without the concurrent option, the index locks the table against writes, and each login writes a row to sessions. On busy tables create indexes concurrently, outside a transaction, and run locking migrations in a quiet hour.")
item3("b3-flag-en-word", "flag", "en", "prose",
 "grep misses matches in binary-looking log files",
 "A search across rotated logs printed only Binary file matches for some files instead of the matching lines. grep treats a file with a NUL byte as binary, and a few log lines had been written with a stray NUL by a crashing process. Passing -a makes grep treat every file as text and print the lines; tr can strip the NUL bytes if the files are processed further.",
 "-a", "-I",
 "grep -a prints matches from logs with a stray NUL",
 "For some rotated logs grep answered only Binary file matches: one NUL byte from a crashing writer makes grep call the file binary. grep -a treats the files as text and prints the lines; strip the NULs with tr for further processing.")
item3("b3-ver-ko-word", "version", "ko", "prose",
 "Python 3.12 로 올린 뒤 테스트가 경고로 실패",
 "CI 의 파이썬을 3.12 로 올리자 경고를 오류로 다루는 테스트 설정 때문에 수십 개 테스트가 실패했다. 3.12 에서 datetime.utcnow 가 사용 중단 예정으로 바뀌면서 DeprecationWarning 을 내기 시작한 것이다. datetime.now(timezone.utc) 로 바꾸면 시간대가 있는 값이 나오므로, 비교하는 쪽 값도 시간대를 갖도록 함께 고쳐야 한다.",
 "3.12", "3.11",
 "datetime.utcnow 사용 중단 경고로 테스트가 깨짐",
 "파이썬 3.12 부터 datetime.utcnow 가 DeprecationWarning 을 내서, 경고를 오류로 보는 설정의 테스트가 대거 실패했다. datetime.now(timezone.utc) 로 바꾸고, 시간대가 붙은 값과 비교하도록 다른 쪽 값도 맞추자.")
item3("b3-port-ko-dup", "port", "ko", "prose",
 "헬스 체크 포트와 서비스 포트를 헷갈려 트래픽이 끊김",
 "새 버전을 배포한 뒤 로드밸런서가 모든 인스턴스를 비정상으로 표시했다. 애플리케이션은 8080 포트로 요청을 받고 관리용 헬스 엔드포인트는 8081 포트로 옮겼는데, 대상 그룹의 헬스 체크는 여전히 8080 포트의 /health 를 보고 있었다. 헬스 체크 포트를 8081 로 바꾸자 인스턴스가 정상으로 돌아왔다.",
 "헬스 체크 포트를 8081 로", "헬스 체크 포트를 8080 로",
 "헬스 엔드포인트를 옮기면 대상 그룹 헬스 체크 포트도 옮길 것",
 "관리용 헬스 엔드포인트를 8081 로 옮겼는데 대상 그룹 헬스 체크는 계속 8080 의 /health 를 확인해서 배포 후 모든 인스턴스가 비정상이 됐다. 헬스 체크 포트를 8081 로 바꾸면 해결된다.")

def swap(text, old, new):
    pat = r'(?<![\w.\-/\\])' + re.escape(old) + r'(?![\w\-])'
    out, n = re.subn(pat, lambda m: new, text)
    return out, n

def build(items, out):
    here = os.path.dirname(os.path.abspath(__file__))
    errs, lines = [], []
    for (iid, cat, lang, form, title, content, old, new, rt, rc) in items:
        bt, n1 = swap(title, old, new)
        bc, n2 = swap(content, old, new)
        if n1 + n2 == 0:
            errs.append(f"{iid}: {old!r} not found")
        if old not in rt + "\n" + rc:
            errs.append(f"{iid}: rewording lacks {old!r}")
        base = {"category": cat, "lang": lang, "form": form}
        lines.append(dict(id=iid + "-alike", label="distinct", variant="one_detail", **base,
                          **{"from": old, "to": new}, a={"title": title, "content": content}, b={"title": bt, "content": bc}))
        lines.append(dict(id=iid + "-reworded", label="reworded", variant="rewrite", **base,
                          a={"title": title, "content": content}, b={"title": rt, "content": rc}))
    if errs:
        print("\n".join(errs)); sys.exit(1)
    with open(os.path.join(here, out), "w", encoding="utf-8") as f:
        for l in lines:
            f.write(json.dumps(l, ensure_ascii=False) + "\n")
    print("OK", out, len(lines))

build(ITEMS, "pairs-lookalike-own.jsonl")
build(ITEMS2, "pairs-lookalike-own2.jsonl")
build(ITEMS3, "pairs-lookalike-own3.jsonl")
