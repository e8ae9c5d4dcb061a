#!/usr/bin/env python3
"""Writes pairs-lookalike-own6.jsonl: session 19's second batch of own look-alikes (look19).

Written after own5's rules landed (cac2935) and measured once before any
change for it, as an estimate of how those rules carry: kinds own5 did not
write (an architecture, a protocol, a hash algorithm, a direction, a time of
day, a weekday, a percentage, a file mode, a time zone, a log level, a
signal, a boolean, a locale, a region, an address, a browser, Korean polarity
and comparison, numbers in words), over everyday operations topics in short
prose. Same shape as gen_lookalike_own5.py: a look-alike is the text with
exactly one string replaced (every occurrence, at word edges), some with a
rewording control. Run: python3 gen_lookalike_own6.py (prints OK and
rewrites the file).
"""
import json, os, re, sys

ITEMS = []
def item(iid, cat, lang, form, title, content, old, new, rt=None, rc=None, rw_alike=False):
    ITEMS.append((iid, cat, lang, form, title, content, old, new, rt, rc, rw_alike))

# ---- architectures, protocols, algorithms ----
item("b6-arch-en-deb", "arch", "en", "prose",
 "Cross-built package refuses to install on the board",
 "The package built on the CI runner would not install on the single-board computer: dpkg said it was for a different architecture. The runner built for amd64 by default, while the board needs arm64. Building with dpkg-buildpackage --host-arch arm64 in a cross toolchain container produced a package that installed.",
 "arm64", "armhf",
 "Package built for the runner's architecture, not the board's",
 "dpkg on the board rejected the CI-built package as the wrong architecture: the runner defaults to amd64 and the board is arm64. Cross-build it with dpkg-buildpackage --host-arch arm64.")
item("b6-proto-en-syslog", "protocol", "en", "prose",
 "Remote syslog messages lost under load",
 "Messages from the access switches went missing at busy times. rsyslog forwarded them over UDP, which drops datagrams when the receiver's buffer is full and tells nobody. Forwarding over TCP with a disk-assisted queue kept every message through the peaks.",
 "TCP", "RELP")
item("b6-hash-en-ssh", "algorithm", "en", "prose",
 "Old network appliance rejects the new SSH client",
 "After the jump host was upgraded, SSH to an old appliance failed with no matching host key type found. The new OpenSSH disables ssh-rsa signatures, which use SHA-1, and the appliance offers nothing else. Allowing ssh-rsa for that host only, with HostKeyAlgorithms +ssh-rsa in its Host block, restored access without weakening other connections.",
 "SHA-1", "SHA-256")
item("b6-ipv-ko-bind", "protocol", "ko", "prose",
 "서비스가 localhost 로는 접속되는데 127.0.0.1 로는 안 됨",
 "새 버전의 개발 서버에 브라우저로 localhost:3000 은 열리는데 curl 127.0.0.1:3000 은 연결이 거부됐다. 서버가 IPv6 루프백인 ::1 에만 바인딩하고 있었기 때문이다. 호스트를 0.0.0.0 으로 지정하거나 IPv4 주소를 명시하자 두 방식 모두 접속됐다.",
 "IPv6", "IPv4")

# ---- directions and opposite pairs not yet written ----
item("b6-dir-en-ingress", "opposite", "en", "prose",
 "Security group change breaks the database replicas",
 "Replication to the read replicas stopped after a security group cleanup. The rule that allowed port 5432 from the replica subnet had been removed from the ingress rules of the primary's group, so the replicas could no longer open connections. Restoring that ingress rule brought replication back within seconds.",
 "ingress", "egress",
 "Deleted ingress rule cut off replication",
 "A security group cleanup removed the primary's ingress rule for 5432 from the replica subnet, so replicas could not connect and replication stopped. Put the ingress rule back.")
item("b6-dir-en-mount", "opposite", "en", "prose",
 "Backup disk filled by a job that ran while it was not mounted",
 "The nightly backup filled the root filesystem instead of the USB disk. The disk had been unmounted for maintenance and the job wrote into the empty mount point directory. Checking mountpoint -q /mnt/backup before the job starts, and failing when it is not mounted, keeps it from writing to root.",
 "before", "after")
item("b6-dir-en-sync", "opposite", "en", "prose",
 "Audit log writes slow every request",
 "Every API request took 30 ms longer once the audit log was turned on. The logger wrote each entry synchronously to a network volume before answering. Switching the logger to asynchronous writes through a bounded buffer removed the latency; entries still reach disk within a second.",
 "asynchronous", "synchronous")
item("b6-dir-en-primary", "opposite", "en", "prose",
 "Reports hammer the database during business hours",
 "Heavy monthly reports slowed the order screens for everyone. They ran against the primary, competing with the writes. Pointing the reporting connection at the replica, and accepting a few seconds of lag, freed the primary.",
 "replica", "primary")
item("b6-dir-ko-upload", "opposite", "ko", "prose",
 "프록시 뒤에서 큰 파일 업로드가 중간에 끊김",
 "리버스 프록시 뒤의 서비스에서 100 MB 가 넘는 파일 업로드가 1분쯤 지나면 끊겼다. 프록시의 요청 본문 시간 제한이 60초라서 느린 회선의 업로드가 끝나기 전에 연결을 닫았다. 업로드 경로에만 제한을 10분으로 늘리자 끝까지 올라갔다.",
 "업로드", "다운로드")
item("b6-dir-ko-max", "opposite", "ko", "config",
 "스레드 풀이 부하 때 늘어나지 않음",
 "요청이 몰려도 작업 스레드가 8개에서 더 늘지 않아 대기열이 길어졌다. 설정 파일의 최대 스레드 수가 최소값과 같은 8 로 적혀 있었다. 최대 스레드 수를 32 로 올리자 부하에 맞춰 늘어났다.",
 "최대", "최소")
item("b6-dir-ko-allow", "opposite", "ko", "prose",
 "방화벽 규칙 순서 때문에 관리 포트가 막힘",
 "관리 네트워크에서 22번 포트로 접속이 안 됐다. 방화벽 규칙은 위에서부터 처음 맞는 것이 적용되는데, 전체 거부 규칙이 관리 대역 허용 규칙보다 위에 있었다. 허용 규칙을 거부 규칙 위로 옮기자 접속됐다.",
 "위로", "아래로")
item("b6-dir-ko-inc", "opposite", "ko", "prose",
 "로그 수집기가 파일 회전 후 새 파일을 읽지 않음",
 "logrotate 로 로그를 회전한 뒤부터 수집기가 아무것도 보내지 않았다. 수집기가 예전 파일의 inode 를 계속 붙잡고 있었다. 회전 방식을 copytruncate 에서 create 로 바꾸고 수집기의 파일 감시 간격을 줄이자 새 파일을 바로 따라갔다.",
 "줄이자", "늘리자")

# ---- times, days, percentages, modes ----
item("b6-time-en-cron", "time", "en", "config",
 "Backups overlap with the batch import",
 "The database backup and the nightly import fought over I/O every night. The crontab ran the backup at\n\n```\n0 2 * * * /usr/local/bin/backup.sh\n```\n\nwhile the import also started at 02:00. Moving the backup to 04:00, after the import's usual end, removed the contention.",
 "04:00", "03:00",
 "Move the backup away from the import's start",
 "Every night backup.sh (cron 0 2 * * *) and the import both began at 02:00 and fought over the disk. Start the backup at 04:00 instead, once the import is normally done.")
item("b6-day-en-cert", "time", "en", "prose",
 "Certificate renewal fails every Sunday",
 "The renewal job failed each Sunday with a timeout from the ACME server. On Sundays the office link is switched to the backup ISP, whose firewall blocks outbound port 80 for the HTTP-01 challenge. Switching the domain to the DNS-01 challenge made the renewal independent of the link.",
 "Sunday", "Saturday")
item("b6-pct-en-disk", "number", "en", "prose",
 "Alert fires too late to free disk space",
 "The disk alert only fired at 95 % full, and by the time anyone looked the database had stopped accepting writes. Lowering the threshold to 80 % and alerting on the rate of growth as well gave a day of warning.",
 "80 %", "90 %")
item("b6-mode-en-ssh", "file_mode", "en", "prose",
 "SSH ignores the authorized_keys file",
 "Key login to a new account fell back to a password prompt. sshd logs showed bad ownership or modes for the home directory: the directory was group-writable. Setting the home directory to 0755 and ~/.ssh to 0700 with authorized_keys at 0600 let the key work.",
 "0700", "0770",
 "Group-writable home makes sshd refuse the keys",
 "A new account's key login fell back to a password: sshd rejected the group-writable home directory. Use 0755 for home, 0700 for ~/.ssh and 0600 for authorized_keys.")
item("b6-time-ko-tz", "timezone", "ko", "prose",
 "매일 아침 리포트가 9시간 늦게 발송됨",
 "매일 오전 8시에 나가야 할 리포트가 오후 5시에 발송됐다. 컨테이너의 시간대가 UTC 였는데 스케줄을 한국 시간 기준으로 적어 두었기 때문이다. 컨테이너에 TZ=Asia/Seoul 을 지정하자 제시간에 나갔다.",
 "Asia/Seoul", "Asia/Tokyo")
item("b6-day-ko-cron", "time", "ko", "prose",
 "주간 정리 작업이 월요일 아침 배포와 겹침",
 "주간 정리 작업이 월요일 새벽에 돌아서 아침 배포 때까지 디스크를 붙잡았다. 작업을 토요일 새벽으로 옮기자 배포와 겹치지 않았다.",
 "토요일", "일요일")

# ---- levels, signals, booleans, locales ----
item("b6-level-en-log", "log_level", "en", "config",
 "Debug logging fills the disk in production",
 "The service's disk filled in two days after a deploy. The new image shipped with\n\n```\nLOG_LEVEL=debug\n```\n\nin its default environment, so every request logged its full body. Setting LOG_LEVEL=info in the deployment overrides the image and keeps the volume small.",
 "LOG_LEVEL=info", "LOG_LEVEL=warn")
item("b6-sig-en-stop", "signal", "en", "prose",
 "Workers lose jobs on every deploy",
 "Jobs in progress vanished at each deploy. The orchestrator sent SIGKILL to the workers after its grace period, and the grace period was shorter than the longest job. Raising the grace period and having the worker stop taking jobs on SIGTERM let running jobs finish.",
 "SIGTERM", "SIGINT",
 "Grace period shorter than a job",
 "Deploys dropped running jobs: after the grace period the workers got SIGKILL, and some jobs outlast it. Lengthen the grace period and make the worker stop fetching jobs on SIGTERM so current ones finish.")
item("b6-bool-en-json", "config_value", "en", "config",
 "Editor formats files the team does not want touched",
 "Saving any file reformatted it, making every diff noisy. The workspace settings had\n\n```json\n{\"editor.formatOnSave\": true}\n```\n\nwhile the team runs the formatter in CI only. Setting it to false in the workspace file stopped the churn.",
 "false", "true")
item("b6-locale-en-sort", "locale", "en", "prose",
 "Sorted output differs between CI and laptops",
 "A test comparing sorted file lists passed on laptops and failed in CI. sort uses the locale's collation, and CI ran with LANG=C while the laptops used en_US.UTF-8, which orders case and punctuation differently. Setting LC_ALL=C in the test made both agree.",
 "LC_ALL=C", "LC_ALL=en_US.UTF-8",
 "sort collation depends on the locale",
 "Sorted lists matched on laptops (en_US.UTF-8) and not in CI (LANG=C) because sort collates by locale. Run the test with LC_ALL=C.")
item("b6-level-ko-log", "log_level", "ko", "prose",
 "운영 서버 로그에 경고가 하나도 남지 않음",
 "장애를 조사하려 했는데 운영 서버 로그에 경고 메시지가 전혀 없었다. 로그 레벨이 ERROR 로 설정되어 있어서 WARN 이하가 모두 버려졌다. 레벨을 WARN 으로 낮추자 필요한 경고가 남았다.",
 "WARN", "INFO")

# ---- more Korean polarity and comparison ----
item("b6-pol-ko-cache", "ko_polarity", "ko", "prose",
 "빌드 캐시를 지워야 새 의존성이 반영됨",
 "의존성 버전을 올렸는데도 빌드 결과에 예전 라이브러리가 들어갔다. 캐시 키에 잠금 파일이 포함되지 않아서 예전 캐시가 그대로 쓰였다. 캐시 키에 잠금 파일의 해시를 넣으면 캐시를 직접 지울 필요가 없다.",
 "필요가 없다", "필요가 있다")
item("b6-pol-ko-restart", "ko_polarity", "ko", "prose",
 "설정 변경 후 재시작이 필요한지 헷갈림",
 "PostgreSQL 에서 work_mem 은 설정을 다시 읽기만 하면 적용되므로 서버를 재시작할 필요가 없다. 반면 shared_buffers 는 재시작해야 바뀐다. pg_settings 의 context 열이 postmaster 인 설정만 재시작이 필요하다.",
 "재시작할 필요가 없다", "재시작해야 한다")
item("b6-cmp-ko-before", "comparison", "ko", "prose",
 "마이그레이션 순서 때문에 배포 중 오류",
 "새 열을 읽는 코드가 먼저 배포되어 마이그레이션이 끝나기 전까지 오류가 났다. 열을 추가하는 마이그레이션은 코드 배포 전에 실행하고, 열을 지우는 마이그레이션은 코드 배포 후에 실행해야 한다. 이 순서를 파이프라인에 단계로 넣자 오류가 사라졌다.",
 "배포 전에", "배포 후에")
item("b6-cmp-en-fewer", "comparison", "en", "prose",
 "Autoscaler removes nodes that still run pods",
 "The cluster autoscaler drained nodes during the day and some services dropped requests. Nodes were removed whenever they ran at fewer than half their capacity for ten minutes. Raising the scale-down delay to thirty minutes and adding pod disruption budgets kept the services up.",
 "fewer", "more")
item("b6-cmp-en-above", "comparison", "en", "prose",
 "Memory alert never fires",
 "The container memory alert stayed quiet although pods were killed for memory. The rule fired when usage was below 90 % of the limit for five minutes, a typo for above. Fixing the comparison made the alert fire before the kills.",
 "below", "above")

# ---- names and identifiers in other forms ----
item("b6-region-en-s3", "region", "en", "prose",
 "Bucket calls slow from the new region",
 "Uploads from the new application servers took seconds each. The bucket lives in eu-west-1 and the servers had moved to ap-northeast-2, so every call crossed continents. Creating a replica bucket in the servers' region with cross-region replication cut the latency.",
 "eu-west-1", "eu-central-1",
 "Bucket on another continent from the servers",
 "Each upload took seconds because the servers moved to ap-northeast-2 while the bucket stays in eu-west-1. A replica bucket in the servers' region, fed by cross-region replication, fixes the latency.")
item("b6-ip-en-dns", "address", "en", "prose",
 "Containers cannot resolve internal names",
 "Containers on the build host resolved public names but not internal ones. The daemon's default DNS was 8.8.8.8, which knows nothing of the internal zone. Setting the daemon's dns to the office resolver at 10.20.0.53 fixed internal lookups.",
 "10.20.0.53", "10.20.0.35")
item("b6-browser-en-cookie", "product", "en", "prose",
 "Login loop in the embedded dashboard",
 "Users of Safari got sent back to the login page in a loop when the dashboard was embedded in the portal. The session cookie was set without SameSite=None; Secure, and the browser treats it as first-party only inside an iframe. Setting the cookie attributes fixed the loop.",
 "Safari", "Firefox",
 "Embedded dashboard loses its session cookie",
 "In Safari the embedded dashboard bounced to login again and again: its session cookie lacked SameSite=None; Secure, so inside the portal's iframe it was dropped. Set those attributes.")
item("b6-lang-ko-collation", "locale", "ko", "prose",
 "한글 정렬 순서가 서버마다 다름",
 "같은 쿼리의 정렬 결과가 서버마다 달랐다. 새 서버의 데이터베이스가 ko_KR.UTF-8 이 아닌 C 로케일로 만들어져 있었다. 데이터베이스를 ko_KR.UTF-8 로 다시 만들고 데이터를 옮기자 순서가 같아졌다.",
 "ko_KR.UTF-8", "en_US.UTF-8")
item("b6-ext-ko-yaml", "file_ext", "ko", "prose",
 "설정 파일을 바꿔도 반영되지 않음",
 "설정을 고쳤는데 서비스가 계속 예전 값으로 돌았다. 서비스는 config.yaml 을 읽는데 고친 파일은 config.yml 이었다. 파일 이름을 맞추자 바로 반영됐다.",
 "config.yaml", "config.json")
item("b6-word-en-hours", "number_word", "en", "prose",
 "Tokens expire in the middle of long uploads",
 "Uploads of large video files failed near the end with an expired token. Access tokens lasted one hour and a slow upload could take longer. Refreshing the token before each chunk, rather than extending its life to twelve hours, fixed the uploads.",
 "one hour", "two hours")
item("b6-word-ko-native", "number_word", "ko", "prose",
 "재시도 횟수가 적어 일시 장애에 실패",
 "외부 결제 API 가 잠깐 끊길 때마다 주문이 실패로 끝났다. 클라이언트가 한 번만 재시도하고 포기했기 때문이다. 지수 백오프로 세 번까지 재시도하게 하자 일시 장애를 넘겼다.",
 "세 번", "다섯 번",
 "결제 API 재시도를 세 번으로 늘림",
 "결제 API 가 순간 끊기면 주문이 실패했다. 재시도를 한 번만 했던 탓이다. 지수 백오프로 세 번까지 재시도하면 넘어간다.")

REWORDS = []

def swap(text, old, new):
    # A Hangul detail may carry a particle or an ending after it (이상의, 오백으로).
    tail = '' if '\uac00' <= old[-1] <= '\ud7a3' else r'(?![\w\-])'
    pat = r'(?<![\w.\-/\\])' + re.escape(old) + tail
    return re.subn(pat, lambda m: new, text)

def build(items, rewords, out):
    here = os.path.dirname(os.path.abspath(__file__))
    errs, lines = [], []
    for (iid, cat, lang, form, title, content, old, new, rt, rc, rw_alike) in items:
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
        if rw_alike:
            wt, m1 = swap(rt, old, new)
            wc, m2 = swap(rc, old, new)
            if m1 + m2 == 0:
                errs.append(f"{iid}: {old!r} not in its rewording")
            lines.append(dict(id=iid + "-rwalike", label="distinct", variant="reworded_one_detail", **base,
                              **{"from": old, "to": new}, a={"title": title, "content": content}, b={"title": wt, "content": wc}))
    for (iid, cat, lang, form, title, content, rt, rc) in rewords:
        lines.append(dict(id=iid, label="reworded", variant="rewrite", category=cat, lang=lang, form=form,
                          a={"title": title, "content": content}, b={"title": rt, "content": rc}))
    ids = [l["id"] for l in lines]
    if len(set(ids)) != len(ids):
        errs.append("duplicate ids")
    if errs:
        print("\n".join(errs)); sys.exit(1)
    with open(os.path.join(here, out), "w", encoding="utf-8") as f:
        for l in lines:
            f.write(json.dumps(l, ensure_ascii=False) + "\n")
    ko = sum(l["lang"] == "ko" for l in lines)
    print("OK", out, len(lines), sum(l["label"] == "distinct" for l in lines), "look-alikes,", ko, "Korean")

build(ITEMS, REWORDS, "pairs-lookalike-own6.jsonl")
