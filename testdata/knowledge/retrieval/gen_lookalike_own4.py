#!/usr/bin/env python3
"""Writes pairs-lookalike-own4.jsonl: session 15's own look-alike pairs (look15).

Written from general engineering knowledge before any change for them, for
the gaps the session names: two error strings (strerror texts, HTTP reason
phrases), a setting given another value or none, a command told with another
subcommand, an opposite swapped (enable/disable, increase/decrease,
before/after, allow/deny, internal/public, upper/lower, add/remove,
client/server), a negation in one text only. A look-alike is the text with
exactly one string replaced (every occurrence, at word edges); some have a
rewording control, the same finding in another agent's words that keeps the
detail. Run: python3 gen_lookalike_own4.py (prints OK and rewrites the file).
"""
import json, os, re, sys

ITEMS = []
def item(iid, cat, lang, form, title, content, old, new, rt=None, rc=None):
    ITEMS.append((iid, cat, lang, form, title, content, old, new, rt, rc))

# ---- error strings ----
item("b4-err-en-eperm", "error_string", "en", "prose",
 "Container cannot write to a bind-mounted data directory",
 "After moving the service into a container, every write to the mounted /srv/data directory failed with Permission denied, although the same binary worked on the host. The image runs as an unprivileged user whose uid does not own the directory on the host, and the mount keeps the host's ownership. Giving the directory to the container's uid with chown, or running the container with a matching --user, fixed the writes; relabelling with :Z is also needed where SELinux is enforcing.",
 "Permission denied", "Operation not permitted",
 "Bind mount owned by the host uid blocks container writes",
 "Writes from the containerised service to /srv/data kept failing with Permission denied while the host binary was fine: the image's unprivileged uid does not own the host directory, and a bind mount keeps host ownership. chown the directory to that uid or start the container with a matching --user; on SELinux hosts add :Z too.")
item("b4-err-en-refused", "error_string", "en", "prose",
 "Application cannot reach the database after the move to a new host",
 "After the database moved to a new host, the application logged Connection refused on every attempt, while psql from the database host itself connected fine. PostgreSQL was listening on localhost only, because listen_addresses had been left at its default in the new postgresql.conf. Setting listen_addresses to the host's private address, adding a matching line to pg_hba.conf and restarting the server let the application connect.",
 "Connection refused", "Connection reset by peer",
 "PostgreSQL on a new host listens only on localhost",
 "The app got Connection refused from the moved database although local psql worked: the new postgresql.conf kept listen_addresses at its default, so the server only listened on localhost. Point listen_addresses at the private address, add a pg_hba.conf entry, restart.")
item("b4-err-en-http", "error_string", "en", "prose",
 "Reverse proxy answers with an error page during deploys",
 "During each deploy, users saw the proxy's Bad Gateway page for a minute or so. The old containers were stopped before the new ones were ready, and the proxy kept sending requests to the upstream addresses it had resolved at start. Waiting for the new containers' health checks before stopping the old ones, and letting the proxy re-resolve the upstream name, removed the error pages.",
 "Bad Gateway", "Gateway Timeout")
item("b4-err-en-enoent", "error_string", "en", "code",
 "Cron job cannot find its script after a refactor",
 "A nightly cron job stopped running after the repository was reorganised. The mail cron sends showed:\n\n```\n/bin/sh: 1: /opt/app/bin/rotate.sh: No such file or directory\n```\n\nThe crontab still pointed to the old layout; the script had moved to /opt/app/scripts. Updating the crontab line, and calling the script through the project's wrapper so that the path lives in one place, fixed it.",
 "No such file or directory", "Permission denied",
 "Crontab kept the old script path after a repository move",
 "The nightly job failed with /bin/sh: 1: /opt/app/bin/rotate.sh: No such file or directory because the crontab still named the old layout; rotate.sh now lives in /opt/app/scripts. Fix the crontab line, and call the script through the project's wrapper so the path is kept in one place.")
item("b4-err-en-pipe", "error_string", "en", "prose",
 "Log shipper stops sending after the collector restarts",
 "Every time the collector was restarted, the log shipper on the web hosts stopped forwarding and its own log filled with Broken pipe errors until it was restarted as well. It kept writing to the TCP connection it had opened at start and did not reconnect when that connection went away. Enabling the shipper's reconnect option with a short backoff made it pick up the restarted collector within seconds.",
 "Broken pipe", "Connection timed out")
item("b4-err-ko-emfile", "error_string", "ko", "prose",
 "부하가 몰리면 API 서버가 새 연결을 받지 못함",
 "트래픽이 몰리는 시간대에 API 서버가 새 연결을 받지 못했고 로그에는 accept 실패와 함께 Too many open files 가 반복해서 찍혔다. systemd 로 띄운 서비스라 셸의 ulimit 설정은 적용되지 않았고, 프로세스의 파일 디스크립터 한도는 기본값 그대로였다. 유닛 파일에 LimitNOFILE 을 넉넉히 주고 서비스를 다시 시작하자 오류가 사라졌다.",
 "Too many open files", "No space left on device",
 "systemd 서비스는 셸 ulimit 이 아니라 LimitNOFILE 을 따른다",
 "피크 시간에 API 서버 로그에 Too many open files 와 accept 실패가 쌓였다. systemd 가 띄운 프로세스에는 셸의 ulimit 이 먹지 않아서 디스크립터 한도가 기본값이었던 것이 원인이다. 유닛에 LimitNOFILE 을 크게 잡고 재시작하면 된다.")
item("b4-err-ko-unreach", "error_string", "ko", "prose",
 "사설 서브넷의 빌드 서버가 외부 레지스트리에 접속하지 못함",
 "새로 만든 사설 서브넷의 빌드 서버에서 이미지를 받으려 하면 Network is unreachable 오류가 나며 바로 실패했다. 서브넷의 라우팅 테이블에 기본 경로가 없어서 외부로 나가는 패킷을 보낼 곳이 없었던 것이다. NAT 게이트웨이를 가리키는 기본 경로를 라우팅 테이블에 추가하자 이미지를 받을 수 있었다.",
 "Network is unreachable", "Connection refused")

# ---- a setting given another value, or none ----
item("b4-set-en-num", "config_value", "en", "config",
 "Connection pool exhausts the database's connection limit",
 "With twelve application pods each holding a pool of 20, the database started rejecting new sessions at peak. The server had\n\n```\nmax_connections = 100\n```\n\nin postgresql.conf, which the pods' pools together exceeded. Putting PgBouncer in front of the database in transaction mode let the pods share a small number of server connections, and the rejections stopped without raising the server limit.",
 "max_connections = 100", "max_connections = 500",
 "Pods' pools together exceed PostgreSQL max_connections",
 "Twelve pods with pools of 20 each outgrew the server's max_connections = 100 and new sessions were rejected at peak. Rather than raising the limit, PgBouncer in transaction mode in front of PostgreSQL lets the pods share a few server connections.")
item("b4-set-en-bare", "config_value", "en", "config",
 "Logical replication slot cannot be created on the primary",
 "Creating a logical replication slot for the change-data-capture connector failed on the primary. The server had to be configured with\n\n```\nwal_level = logical\n```\n\nin postgresql.conf and restarted, since the setting is only read at start; max_replication_slots also has to leave room for the connector's slot.",
 "wal_level = logical", "wal_level = replica",
 "CDC connector needs wal_level = logical on the primary",
 "The CDC connector could not create its logical replication slot until the primary ran with wal_level = logical in postgresql.conf, which takes a restart to apply. Leave room in max_replication_slots for the connector's slot as well.")
item("b4-set-en-yaml", "config_value", "en", "config",
 "Pods keep running an old image after a push to the same tag",
 "After pushing a fixed image under the same tag, new pods on some nodes still ran the old code. The deployment had\n\n```yaml\nimagePullPolicy: IfNotPresent\n```\n\nso each node reused whatever image it had cached for that tag. Deploying by digest, or by a unique tag per build, makes every node run the same image; the pull policy only changes whether a cached image is trusted.",
 "IfNotPresent", "Always")
item("b4-set-en-mysql", "config_value", "en", "config",
 "Bulk import into MySQL is slow on network storage",
 "A bulk import of a few million rows into InnoDB ran at a few hundred rows per second on network-attached disks. Each commit flushed the redo log to disk because the server ran with\n\n```\ninnodb_flush_log_at_trx_commit = 1\n```\n\nand the volume's fsync latency was several milliseconds. Batching the inserts into larger transactions brought the import to tens of thousands of rows per second with the setting left as it was.",
 "innodb_flush_log_at_trx_commit = 1", "innodb_flush_log_at_trx_commit = 2")
item("b4-set-ko-sysctl", "config_value", "ko", "config",
 "메모리가 남는데도 데이터베이스 서버가 스왑을 씀",
 "메모리가 절반 넘게 비어 있는데도 데이터베이스 서버가 스왑을 쓰면서 쿼리 지연이 튀었다. 커널 설정을 보니\n\n```\nvm.swappiness = 60\n```\n\n으로 배포판 기본값 그대로였고, 커널이 페이지 캐시를 지키려고 오래 쓰지 않은 프로세스 메모리를 먼저 스왑으로 내보내고 있었다. /etc/sysctl.d 에 값을 낮춰 두고 sysctl --system 으로 적용하자 스왑 사용이 멈췄다.",
 "vm.swappiness = 60", "vm.swappiness = 1",
 "배포판 기본 swappiness 때문에 DB 서버가 스왑을 씀",
 "메모리가 넉넉한데 DB 서버가 스왑을 써서 지연이 생긴 원인은 vm.swappiness = 60 인 배포판 기본값이었다. 커널이 페이지 캐시를 위해 쉬는 프로세스 메모리를 스왑으로 밀어낸 것이다. /etc/sysctl.d 에 더 낮은 값을 두고 sysctl --system 으로 적용하면 된다.")

# ---- a command told with another subcommand ----
item("b4-cmd-en-systemctl", "command", "en", "code",
 "Nginx keeps serving the old certificate after renewal",
 "After certbot renewed the certificate, browsers still saw the old expiry date. Nginx reads its certificates when its workers start, so the renewed files on disk were not used until nginx was told to pick them up. A deploy hook that runs\n\n```\nsystemctl reload nginx\n```\n\nafter each renewal made the new certificate live without dropping open connections.",
 "systemctl reload nginx", "systemctl restart nginx",
 "Renewed certificate not served until nginx reloads",
 "Certbot renewed the certificate but clients saw the old expiry: nginx only reads certificates when workers start. A certbot deploy hook running systemctl reload nginx makes the renewed certificate live and keeps connections open.")
item("b4-cmd-en-kubectl", "command", "en", "code",
 "A bad config push broke every pod of the web deployment",
 "A configuration change rolled out to the web deployment made every new pod crash on start, and the old replica set was scaled down. The quickest way back was\n\n```\nkubectl rollout undo deployment/web\n```\n\nwhich returned the deployment to its previous revision within a minute; kubectl rollout history deployment/web lists the revisions to choose from.",
 "kubectl rollout undo deployment/web", "kubectl rollout restart deployment/web",
 "Roll the web deployment back to its previous revision",
 "When a config change made each new web pod crash and the old replica set was already gone, kubectl rollout undo deployment/web brought back the previous revision in about a minute. See kubectl rollout history deployment/web for the revisions.")
item("b4-cmd-en-stash", "command", "en", "code",
 "Stashed changes vanish from the stash list after switching branches",
 "A developer stashed work in progress, switched branches to fix a bug and came back, but the stash list was empty afterwards. They had brought the work back with\n\n```\ngit stash pop\n```\n\nwhich applies the stash and drops it; when the pop hit a conflict on the other branch the stash was kept, which is why it seemed to come and go.",
 "git stash pop", "git stash apply")
item("b4-cmd-en-compose", "command", "en", "code",
 "Database data lost after tearing down the compose stack",
 "The local PostgreSQL data disappeared after the team's cleanup script ran. The script called\n\n```\ndocker compose down -v\n```\n\nwhich removes the containers together with the named volumes declared in the compose file, and the database's volume was one of them. Keeping the data on a volume the script does not touch, or dropping the -v option, keeps it across restarts of the stack.",
 "docker compose down -v", "docker compose stop -v")
item("b4-cmd-en-drain", "command", "en", "code",
 "Node maintenance evicted pods without respecting their budget",
 "Before patching a node, an engineer ran\n\n```\nkubectl drain node-7 --ignore-daemonsets\n```\n\nand the payment service lost two of its three replicas at once. The service had no PodDisruptionBudget, so the eviction had nothing to wait for. Adding a budget with minAvailable of two makes the same command evict one replica at a time.",
 "kubectl drain node-7", "kubectl cordon node-7")
item("b4-cmd-ko-enable", "command", "ko", "code",
 "재부팅하면 도커 데몬이 올라오지 않음",
 "새로 구성한 빌드 서버를 재부팅할 때마다 도커 데몬이 꺼져 있어서 빌드가 실패했다. 패키지를 설치한 뒤\n\n```\nsystemctl enable docker\n```\n\n를 실행하지 않아 부팅 시 서비스가 시작되도록 등록되지 않았던 것이다. 등록한 뒤에는 재부팅해도 데몬이 자동으로 올라왔다.",
 "systemctl enable docker", "systemctl start docker",
 "부팅 시 도커를 띄우려면 서비스 등록이 필요",
 "빌드 서버가 재부팅되면 도커가 꺼져 있던 이유는 설치 후 systemctl enable docker 를 하지 않아 부팅 시 시작 대상에 없었기 때문이다. 등록해 두면 재부팅 후에도 데몬이 자동으로 뜬다.")

# ---- opposites ----
item("b4-opp-en-enable", "opposite", "en", "prose",
 "Slow TLS handshakes between services inside the cluster",
 "Service-to-service calls spent most of their time in TLS handshakes, because every request opened a new connection. To fix it, enable keep-alive on the HTTP client so that connections to the same service are reused, and set the idle timeout below the server's so the client never reuses a connection the server has just closed.",
 "enable", "disable",
 "Reuse connections to cut TLS handshake time between services",
 "Most of the latency between services was TLS handshakes since each request dialled a new connection. Turn on keep-alive on the HTTP client (enable it) so connections get reused, with an idle timeout shorter than the server's.")
item("b4-opp-en-increase", "opposite", "en", "prose",
 "Kafka consumers rebalance again and again under load",
 "Under load the consumer group rebalanced every few minutes and throughput collapsed. Processing one batch of records took longer than the allowed poll interval, so the broker considered the consumers dead and moved their partitions. To stop it, increase the poll interval setting on the consumers, or fetch fewer records per poll so that each batch finishes in time.",
 "increase", "decrease",
 "Slow batch processing makes Kafka evict live consumers",
 "Consumers were kicked out and the group rebalanced under load because a batch took longer than the allowed poll interval. Consumers should increase the poll interval, or lower the records fetched per poll so each batch finishes in time.")
item("b4-opp-en-before", "opposite", "en", "prose",
 "Database migration fails when the new code is already running",
 "A release failed because the new application version started handling requests while the schema it expected did not exist yet. Run the migration job before the new version of the application is rolled out, and keep each migration compatible with the code that is still running, so that the old and the new version can both work during the rollout.",
 "before", "after")
item("b4-opp-en-allow", "opposite", "en", "prose",
 "Monitoring cannot scrape the metrics port after a firewall change",
 "After the firewall rules were rewritten, the monitoring server could no longer scrape the exporters on the application hosts. The new rule set had no entry for the metrics port. Add a rule to allow the monitoring server's address on that port, placed above the catch-all rule, and reload the firewall.",
 "allow", "deny",
 "New firewall rules left out the metrics port",
 "Scrapes from the monitoring server broke after the firewall rewrite because nothing covered the metrics port. Put a rule that will allow the monitoring server's address on that port above the catch-all, then reload the firewall.")
item("b4-opp-en-internal", "opposite", "en", "prose",
 "Admin API reachable from the internet after a load balancer change",
 "A security scan found the admin API answering from the internet. The service had been moved behind a new load balancer created as public by default in that account. Recreate the load balancer as internal, so that it only gets private addresses, and keep the admin API on it alone.",
 "public", "internal")
item("b4-opp-en-upper", "opposite", "en", "prose",
 "Login fails for users whose e-mail address has capital letters",
 "Users who typed their e-mail address with capital letters could not log in, although registration had worked. The sign-up form converted addresses to lower case before saving them, while the login form compared the address as typed. Converting the address to lower case in one place, before both saving and looking it up, fixed the logins.",
 "lower", "upper",
 "Case-sensitive e-mail comparison breaks some logins",
 "Logins failed for addresses typed with capitals because sign-up saved them in lower case but login compared them as typed. Normalise the address to lower case in one helper used before saving and before lookup.")
item("b4-opp-en-add", "opposite", "en", "prose",
 "Build breaks after a transitive dependency is upgraded",
 "The build started failing with a missing class after a library upgrade pulled in a newer version of a transitive dependency. The project used a class of that dependency directly without declaring it. Add the dependency to the project's own build file at the version the code was written for, so the upgrade of the other library no longer decides it.",
 "Add", "Remove")
item("b4-opp-en-client", "opposite", "en", "prose",
 "Idle connections dropped by the load balancer cause random errors",
 "Every few minutes one request failed with a reset connection, always on a connection that had been idle. The load balancer drops idle connections after 60 seconds, while the client kept them in its pool for 90. Set the client's idle timeout below the load balancer's, so the pool closes connections before they are dropped under it.",
 "client", "server",
 "Pool keeps idle connections longer than the load balancer",
 "Random failures on reused idle connections came from the load balancer dropping them at 60 seconds while the client pooled them for 90. Lower the client's idle timeout under the load balancer's so the pool retires them first.")
item("b4-opp-ko-increase", "opposite", "ko", "prose",
 "배치 작업이 끝나기 전에 메시지가 다시 배달됨",
 "큐에서 받은 메시지를 처리하는 배치 작업이 오래 걸리면 같은 메시지가 다른 작업자에게 다시 배달되어 중복 처리가 생겼다. 메시지의 가시성 제한 시간이 처리 시간보다 짧아서 처리 중인 메시지가 다시 보이게 된 것이다. 가시성 제한 시간을 처리 시간보다 길게 증가시키거나, 처리 중에 주기적으로 연장하면 된다.",
 "증가시키거나", "감소시키거나",
 "가시성 제한 시간이 짧아 메시지가 중복 처리됨",
 "처리가 오래 걸리는 배치에서 같은 메시지가 다른 작업자에게 또 배달된 것은 가시성 제한 시간이 처리 시간보다 짧았기 때문이다. 제한 시간을 처리 시간보다 길게 증가시키거나 처리 도중 주기적으로 늘려 주자.")
item("b4-opp-ko-client", "opposite", "ko", "prose",
 "인증서 체인이 빠져 일부 환경에서만 TLS 오류",
 "브라우저에서는 잘 열리는 API 가 일부 배치 작업에서만 인증서 검증 오류로 실패했다. 서버가 중간 인증서 없이 말단 인증서만 보내고 있었고, 브라우저는 캐시된 중간 인증서로 체인을 채웠지만 배치 작업의 클라이언트는 그러지 못했다. 서버 설정에 전체 체인 파일을 지정하자 모든 환경에서 검증이 됐다.",
 "서버", "클라이언트")

# ---- a negation in one text only ----
item("b4-neg-en-require", "negation", "en", "prose",
 "Changing the shared buffers size on a running PostgreSQL server",
 "An engineer raised shared_buffers in postgresql.conf and reloaded the server, but SHOW shared_buffers still gave the old value. The setting requires a restart of the server: it sizes shared memory allocated at start, and pg_settings marks such settings with context postmaster. Plan a restart, or a failover to an already restarted replica, to apply it.",
 "requires a restart", "does not require a restart",
 "shared_buffers only changes after a PostgreSQL restart",
 "Reloading after raising shared_buffers left SHOW shared_buffers at the old value: the setting requires a restart of the server, because it sizes shared memory at start (context postmaster in pg_settings). Apply it with a planned restart or a failover to a restarted replica.")
item("b4-neg-en-longer", "negation", "en", "prose",
 "Old client library fails against the upgraded message broker",
 "After the broker upgrade, services still on the old client library failed to connect. The broker's new major version is no longer compatible with the old wire protocol version those clients speak, so the handshake fails before authentication. Upgrading the client library in those services, or keeping one broker on the old version until they move, restored the connections.",
 "is no longer compatible", "is still compatible")
item("b4-neg-en-cannot", "negation", "en", "prose",
 "Growing a database volume on a cloud instance",
 "The database volume was nearly full and the team planned a maintenance window to grow it. The volume type in use can be resized online: after the size is changed in the console, the partition and the file system are grown on the running instance with growpart and resize2fs, with no downtime.",
 "can be resized online", "cannot be resized online",
 "The data volume grows online with growpart and resize2fs",
 "No maintenance window was needed for the nearly full database volume: this volume type can be resized online. Change the size in the console, then grow the partition and the file system on the live instance with growpart and resize2fs.")
item("b4-neg-ko-doen", "negation", "ko", "prose",
 "컨테이너 안에서 바꾼 설정이 재시작 후 사라짐",
 "운영 중인 컨테이너에 접속해 설정 파일을 고쳤더니 당장은 적용되었지만, 컨테이너를 다시 만들자 바뀐 내용이 사라졌다. 컨테이너의 파일 시스템은 이미지에서 새로 만들어지므로 그 안에서 고친 파일은 보존된다고 보면 안 된다. 설정은 볼륨이나 ConfigMap 으로 밖에서 넣어야 한다.",
 "보면 안 된다", "보면 된다",
 "컨테이너 안에서 고친 설정 파일은 다시 만들면 없어짐",
 "실행 중인 컨테이너 안에서 설정 파일을 고치면 그때는 적용되지만 컨테이너를 새로 만들면 사라진다. 파일 시스템이 이미지에서 다시 만들어지므로 안에서 고친 파일이 남는다고 보면 안 된다. 설정은 볼륨이나 ConfigMap 으로 넣자.")
item("b4-neg-ko-support", "negation", "ko", "prose",
 "구버전 드라이버로 새 데이터베이스에 접속하면 인증 실패",
 "데이터베이스를 새 메이저 버전으로 올린 뒤 일부 서비스가 인증 단계에서 접속에 실패했다. 새 버전은 기본 인증 방식으로 SCRAM 을 쓰는데, 그 서비스들이 쓰는 오래된 드라이버는 이 방식을 지원하지 않는다. 드라이버를 올리기 전까지는 해당 계정의 비밀번호 방식을 임시로 예전 방식으로 두었다.",
 "지원하지 않는다", "지원한다")

# ---- rewordings only (no look-alike): the same finding in other words ----
REWORDS = [
 ("b4-rw-en-oom", "rewording", "en", "prose",
  "JVM in a container killed by the OOM killer",
  "The service's container kept being killed with exit code 137 although the Java heap looked fine. The JVM sized its heap from the host's memory, not from the container's limit, on the old Java 8 update in use. Moving to a JDK that reads cgroup limits, or setting -Xmx well below the container limit, stopped the kills.",
  "Exit code 137 from a Java container with a healthy heap",
  "A Java container died with exit code 137 while the heap looked normal: the old Java 8 update sized the heap from host memory instead of the container limit. Use a JDK that honours cgroup limits or give -Xmx a value well under the limit."),
 ("b4-rw-ko-dns", "rewording", "ko", "prose",
  "파드에서 외부 도메인 조회가 5초씩 걸림",
  "쿠버네티스 파드에서 외부 API 를 부를 때마다 첫 요청이 5초 가까이 걸렸다. resolv.conf 의 ndots 가 5 라서 점이 적은 외부 도메인도 클러스터 검색 도메인을 차례로 붙여 조회한 뒤에야 원래 이름을 조회했다. 도메인 끝에 점을 붙이거나 파드의 dnsConfig 에서 ndots 를 낮추자 지연이 사라졌다.",
  "ndots 5 때문에 외부 도메인 조회가 느림",
  "파드의 resolv.conf 가 ndots 5 라서, 외부 도메인을 부르면 클러스터 검색 도메인을 붙인 이름들을 먼저 다 조회하느라 첫 요청이 5초쯤 늦었다. 도메인 뒤에 점을 붙이거나 dnsConfig 로 ndots 를 낮추면 된다."),
]

def swap(text, old, new):
    pat = r'(?<![\w.\-/\\])' + re.escape(old) + r'(?![\w\-])'
    return re.subn(pat, lambda m: new, text)

def build(items, rewords, out):
    here = os.path.dirname(os.path.abspath(__file__))
    errs, lines = [], []
    for (iid, cat, lang, form, title, content, old, new, rt, rc) in items:
        bt, n1 = swap(title, old, new)
        bc, n2 = swap(content, old, new)
        if n1 + n2 == 0:
            errs.append(f"{iid}: {old!r} not found")
        base = {"category": cat, "lang": lang, "form": form}
        lines.append(dict(id=iid + "-alike", label="distinct", variant="one_detail", **base,
                          **{"from": old, "to": new}, a={"title": title, "content": content}, b={"title": bt, "content": bc}))
        if rt is None:
            continue
        if old not in rt + "\n" + rc:
            errs.append(f"{iid}: rewording lacks {old!r}")
        lines.append(dict(id=iid + "-reworded", label="reworded", variant="rewrite", **base,
                          a={"title": title, "content": content}, b={"title": rt, "content": rc}))
    for (iid, cat, lang, form, title, content, rt, rc) in rewords:
        lines.append(dict(id=iid, label="reworded", variant="rewrite", category=cat, lang=lang, form=form,
                          a={"title": title, "content": content}, b={"title": rt, "content": rc}))
    if errs:
        print("\n".join(errs)); sys.exit(1)
    with open(os.path.join(here, out), "w", encoding="utf-8") as f:
        for l in lines:
            f.write(json.dumps(l, ensure_ascii=False) + "\n")
    print("OK", out, len(lines), sum(l["label"] == "distinct" for l in lines), "look-alikes")

build(ITEMS, REWORDS, "pairs-lookalike-own4.jsonl")
