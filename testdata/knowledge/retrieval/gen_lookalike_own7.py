#!/usr/bin/env python3
"""Writes pairs-lookalike-own7.jsonl: session 20's batch of own look-alikes (look20).

Written before reading the merge rules closely, from general knowledge, for
kinds own1-6 did not write (only their kind labels were read): a calendar
date, a quantifier (all, some, none), a modality (must, may), a frequency, a
condition (if, unless), the order of two steps, a user or role, a git ref, a
Linux capability, a text encoding, a checksum or commit id, a keyboard
shortcut, an SQL keyword, a logical operator, a cron schedule, a CIDR prefix,
an HTTP header, a delimiter, a shell redirection and a network interface,
over tools no tuning part names (Jellyfin, QGIS, Calibre, HWP, OpenSCAD,
Zulip, Immich, Paperless-ngx, Vaultwarden, Obsidian, Zotero, Frigate,
Darktable, GIMP, Inkscape, Audacity, Hyprland, Flatpak, Guix, winget, Task
Scheduler, Google Sheets, Rspamd, BIND 9, Squid, strongSwan, FreeIPA, iSCSI,
smartctl). Same shape as gen_lookalike_own6.py: a look-alike is the text with
exactly one string replaced (every occurrence, at word edges), or for the
order kind two strings exchanged; some with a rewording control (a true
duplicate that keeps the detail) and some (-rwalike) with the rewording's
detail changed too. Run: python3 gen_lookalike_own7.py (prints OK and
rewrites the file).
"""
import json, os, re, sys

ITEMS = []
def item(iid, cat, lang, form, title, content, old, new, rt=None, rc=None, rw_alike=False):
    ITEMS.append((iid, cat, lang, form, title, content, old, new, rt, rc, rw_alike))

# ---- dates ----
item("b7-date-en-cert", "date", "en", "prose",
 "Jellyfin stopped serving over HTTPS on a Sunday",
 "Remote clients could no longer reach the Jellyfin server and browsers showed a certificate error. The PKCS#12 file Jellyfin loads had been exported from the old certificate, which expired on 2026-03-14; the renewal hook updated the PEM files but never rebuilt the .pfx. Rebuilding it with openssl pkcs12 -export in the hook and restarting Jellyfin fixed it.",
 "2026-03-14", "2026-03-21",
 "Jellyfin's .pfx was never rebuilt after certificate renewal",
 "The renewal hook refreshed the PEM certificate but Jellyfin reads a PKCS#12 bundle, which still held the certificate that ran out on 2026-03-14, so HTTPS clients failed. Make the hook run openssl pkcs12 -export and restart the service.",
 rw_alike=True)
item("b7-date-en-guix", "date", "en", "prose",
 "Guix time machine build fails for an old channel commit",
 "Reproducing last year's environment with guix time-machine failed while substituting packages: the build farm no longer had substitutes for commits older than 2025-06-01, so everything was built from source and one test suite timed out. Pinning the channel to a commit after that date restored substitutes.",
 "2025-06-01", "2025-01-06")
item("b7-date-ko-hwp", "date", "ko", "prose",
 "한글 문서 일괄 변환이 특정 날짜 이후 실패",
 "HWP 파일을 PDF 로 바꾸는 야간 작업이 2026년 4월 2일부터 모두 실패했다. 그날 배포된 한컴오피스 업데이트가 자동화 보안 모듈 등록을 초기화했기 때문이다. 보안 모듈을 다시 등록하자 변환이 재개됐다.",
 "4월 2일", "4월 20일",
 "한컴오피스 업데이트 후 HWP PDF 변환 중단",
 "2026년 4월 2일 한컴오피스 업데이트가 나온 뒤로 HWP→PDF 야간 변환이 전부 실패했다. 업데이트가 자동화용 보안 모듈 등록을 지워 버린 탓이라 모듈을 재등록하면 된다.",
 rw_alike=True)
item("b7-date-ko-immich", "date", "ko", "prose",
 "Immich 타임라인에 사진이 엉뚱한 날짜로 표시",
 "Immich 로 가져온 스캔 사진이 전부 2000년 1월 1일로 표시됐다. 스캐너가 EXIF 에 DateTimeOriginal 대신 기본값을 써 넣었기 때문이다. exiftool 로 파일 이름의 날짜를 DateTimeOriginal 에 옮긴 뒤 메타데이터를 다시 읽게 하자 제 날짜로 돌아왔다.",
 "2000년 1월 1일", "1970년 1월 1일")

# ---- quantifiers ----
item("b7-quant-en-paperless", "quantifier", "en", "prose",
 "Paperless-ngx consumer skips scanned files",
 "Documents dropped into the consume folder by the network scanner were ignored. The scanner wrote the PDFs over SMB, and inotify does not see all changes made through that mount, so Paperless-ngx never noticed some of them. Setting PAPERLESS_CONSUMER_POLLING=10 made it poll the folder and pick up every file.",
 "some of them", "any of them",
 "Paperless-ngx misses SMB-written files until polling is on",
 "Over an SMB share inotify misses events, so the consumer silently skipped some of them. PAPERLESS_CONSUMER_POLLING=10 switches it to polling the consume folder, which catches every scan.")
item("b7-quant-en-vault", "quantifier", "en", "prose",
 "Vaultwarden admin page invites fail",
 "Invitations sent from the Vaultwarden admin page never arrived. SMTP was configured, but SIGNUPS_DOMAINS_WHITELIST listed only the company domain, and all of the invited addresses were on a partner's domain. Adding the partner domain to the whitelist let the invitations through.",
 "all of the", "one of the")
item("b7-quant-ko-zotero", "quantifier", "ko", "prose",
 "Zotero 동기화 후 첨부 파일이 사라짐",
 "WebDAV 로 Zotero 를 동기화한 뒤 다른 컴퓨터에서 모든 PDF 첨부가 열리지 않았다. 파일 동기화 설정이 '필요할 때 내려받기'로 되어 있었고 WebDAV 인증서가 만료돼 내려받기가 실패했다. 인증서를 갱신하자 첨부가 다시 열렸다.",
 "모든", "일부",
 "WebDAV 인증서 만료로 Zotero 첨부 열리지 않음",
 "Zotero 를 WebDAV 로 맞춘 두 번째 PC 에서 모든 PDF 첨부가 안 열렸다. 첨부는 필요할 때 내려받도록 되어 있는데 WebDAV 서버 인증서가 만료돼 다운로드가 실패한 것이다. 인증서 갱신으로 해결.")
item("b7-quant-ko-frigate", "quantifier", "mixed", "config",
 "Frigate 가 녹화를 저장하지 않음",
 "Frigate 설정에서 record.enabled 를 켰는데도 녹화 파일이 생기지 않았다. 카메라마다 record 블록이 있었고 그중 하나도 enabled: true 가 아니어서 전역 값을 덮어썼다. 카메라별 record 블록을 지우자 모든 카메라가 녹화했다.",
 "하나도", "하나만")

# ---- modality ----
item("b7-modal-en-flatpak", "modality", "en", "prose",
 "Flatpak app cannot see files on the second disk",
 "A Flatpak photo editor showed an empty folder for the second disk. Its sandbox only exposes the home directory, so paths under /mnt/data must be granted explicitly. Running flatpak override --user --filesystem=/mnt/data for the app made the files visible.",
 "must be", "may be",
 "Sandboxed Flatpak app needs a filesystem override for /mnt/data",
 "The Flatpak sandbox exposes only the home directory; anything under /mnt/data must be granted with flatpak override --user --filesystem=/mnt/data, after which the editor lists the files.")
item("b7-modal-en-rspamd", "modality", "en", "prose",
 "Rspamd rejects mail after a DKIM key rotation",
 "After the DKIM key was rotated, Rspamd began rejecting outgoing mail from the web application. The signing selector in dkim_signing.conf should match the TXT record published in DNS, and the old selector was still configured. Changing the selector to the new one and reloading Rspamd stopped the rejections.",
 "should match", "need not match")
item("b7-modal-ko-winget", "modality", "ko", "prose",
 "winget 으로 사내 패키지 설치 실패",
 "사내 원본을 추가한 뒤 winget install 이 원본 계약 동의를 묻고 멈췄다. 자동 설치 스크립트에서는 --accept-source-agreements 를 반드시 붙여야 한다. 옵션을 넣자 스크립트가 끝까지 돌았다.",
 "반드시 붙여야 한다", "붙여도 된다",
 "winget 무인 설치에는 --accept-source-agreements 필수",
 "사내 원본을 등록하면 winget install 이 원본 계약 동의를 기다리며 멈춘다. 스크립트로 설치할 때는 --accept-source-agreements 를 반드시 붙여야 한다.",
 rw_alike=True)
item("b7-modal-ko-freeipa", "modality", "ko", "prose",
 "FreeIPA 클라이언트 등록이 시간 오류로 실패",
 "ipa-client-install 이 Kerberos 인증 단계에서 실패했다. 클라이언트 시계가 서버보다 10분 늦었는데 Kerberos 는 시계 차이가 5분 이내여야 한다. chrony 로 서버와 시간을 맞춘 뒤 다시 설치하자 등록됐다.",
 "이내여야 한다", "이내일 수도 있다")

# ---- frequency ----
item("b7-freq-en-smart", "frequency", "en", "prose",
 "smartd never warned before the disk failed",
 "A NAS disk died without a single email from smartd. smartd.conf ran a long self-test monthly, which missed the rapid growth of reallocated sectors over the last two weeks. Scheduling a short self-test daily and a long one weekly with -s (S/../.././02|L/../../6/03) caught the next failing disk early.",
 "monthly", "weekly",
 "Monthly SMART long tests missed a fast-failing disk",
 "smartd only ran a long self-test monthly, too rarely to see reallocated sectors climbing over two weeks, so the NAS disk failed without warning. A daily short test plus a weekly long one (-s (S/../.././02|L/../../6/03)) flags it in time.")
item("b7-freq-en-darktable", "frequency", "en", "prose",
 "Darktable library grows huge and slow",
 "Darktable took a minute to open the lighttable. Its library.db had grown to several gigabytes because the database was never vacuumed. Setting the maintenance option to run on close and letting it vacuum always kept the file small.",
 "always", "rarely")
item("b7-freq-ko-obsidian", "frequency", "ko", "prose",
 "Obsidian 동기화 충돌 파일이 쌓임",
 "Syncthing 로 공유한 Obsidian 보관함에 sync-conflict 파일이 매일 생겼다. 두 기기에서 Obsidian 이 workspace.json 을 열 때마다 고쳐 쓰기 때문이다. .stignore 에 .obsidian/workspace*.json 을 넣자 충돌이 사라졌다.",
 "매일", "가끔",
 "workspace.json 때문에 생기는 Obsidian 충돌 파일",
 "Obsidian 은 열 때마다 .obsidian/workspace.json 을 다시 써서, 두 기기를 Syncthing 으로 맞추면 충돌 사본이 매일 생긴다. .stignore 에 .obsidian/workspace*.json 을 추가하면 끝.",
 rw_alike=True)

# ---- conditions ----
item("b7-cond-en-squid", "condition", "en", "prose",
 "Squid caches pages that should be private",
 "Users saw each other's dashboards through the office proxy. The application sent Cache-Control: public on pages behind login, and Squid stored them. Changing the application to send private if a session cookie is present stopped Squid from sharing them.",
 "if", "unless",
 "Logged-in pages marked public were shared by Squid",
 "Squid cached dashboards behind login because the app marked them Cache-Control: public. Have the app send private if a session cookie is present and the proxy stops serving one user's page to another.")
item("b7-cond-en-gimp", "condition", "en", "prose",
 "GIMP batch export loses the colour profile",
 "PNG files exported by a GIMP Script-Fu batch looked washed out in the browser. The export kept the embedded colour profile only when the image was converted to sRGB first, and the batch skipped that step. Adding a conversion to sRGB before export fixed the colours.",
 "only when", "even when")
item("b7-cond-ko-calibre", "condition", "ko", "prose",
 "Calibre 전자책 변환에서 표지가 빠짐",
 "Calibre 로 EPUB 을 AZW3 로 바꾸자 일부 책의 표지가 사라졌다. 원본에 표지 이미지가 있는 경우에만 변환기가 그 표지를 쓰고, 없으면 메타데이터의 표지를 쓰지 않는다. '표지 이미지 삽입' 옵션을 켜자 모든 책에 표지가 들어갔다.",
 "있는 경우에만", "없는 경우에만")

# ---- order of two steps (two strings exchanged) ----
item("b7-order-en-iscsi", "order", "en", "prose",
 "iSCSI volume not mounted after reboot",
 "The backup volume on the iSCSI target was missing after every reboot. The fstab entry was mounted before the iSCSI session had logged in, so the device did not exist yet. Adding _netdev to the fstab entry makes systemd log in first and mount second.",
 ("first", "second"), None,
 "fstab mounts the iSCSI disk too early without _netdev",
 "Without _netdev the iSCSI-backed filesystem is mounted before the session logs in and the mount fails at boot. With _netdev systemd logs in first and mounts second.")
item("b7-order-en-strongswan", "order", "en", "prose",
 "strongSwan tunnel comes up but no traffic passes",
 "The IPsec tunnel between the two offices established, but pings between the subnets failed. On the firewall the NAT rule was evaluated before the IPsec policy, so packets were masqueraded and no longer matched the tunnel selectors. Putting the IPsec exemption above the NAT rule let traffic through.",
 ("above", "below"), None)
item("b7-order-ko-qgis", "order", "ko", "prose",
 "QGIS 에서 레이어 좌표가 어긋남",
 "QGIS 에서 GPS 로그 레이어가 지도에서 수백 미터 어긋나 보였다. 레이어를 먼저 불러오고 나중에 프로젝트 좌표계를 EPSG:5186 으로 바꾸자 실시간 재투영이 맞게 적용됐다.",
 ("먼저", "나중에"), None,
 "QGIS GPS 레이어 위치 어긋남과 좌표계 순서",
 "GPS 로그 레이어가 몇백 미터 밀려 보일 때는 레이어를 먼저 불러오고 나중에 프로젝트 좌표계를 EPSG:5186 으로 지정하면 재투영이 제대로 된다.")

# ---- users and roles ----
item("b7-user-en-jellyfin", "user_role", "en", "prose",
 "Jellyfin cannot read the new media folder",
 "Movies copied to /srv/media did not appear in the Jellyfin library and the scan log showed permission denied. The files were owned by root with mode 600, while the service runs as the jellyfin user. chown -R jellyfin:media /srv/media and a library rescan fixed it.",
 "jellyfin:media", "root:media",
 "Media owned by root is unreadable to Jellyfin",
 "Jellyfin's library scan hit permission denied on /srv/media because the files were root-owned and mode 600 while the service runs as the jellyfin user; chown -R jellyfin:media /srv/media, then rescan.")
item("b7-user-en-zulip", "user_role", "en", "prose",
 "Zulip users cannot create streams after an upgrade",
 "After the upgrade only some people could create streams. The organization setting for who can create streams had been reset to administrators. Setting it back to members restored the old behaviour.",
 "members", "moderators")
item("b7-user-ko-sheets", "user_role", "mixed", "prose",
 "협력사가 공유 시트의 수식을 고침",
 "외부 협력사에 링크로 공유한 Google Sheets 단가표에서 협력사 담당자가 수식을 고쳐 놓았다. 링크 공유 권한이 Editor 로 되어 있었기 때문이다. 링크 권한을 Viewer 로 바꾸자 편집 메뉴가 사라졌다.",
 "Viewer", "Commenter")
item("b7-user-ko-task", "user_role", "ko", "prose",
 "작업 스케줄러 백업 작업이 로그인하지 않으면 실행 안 됨",
 "Windows 작업 스케줄러의 야간 백업이 아무도 로그인하지 않은 날에는 돌지 않았다. 작업이 '사용자가 로그온할 때만 실행'으로 되어 있었다. SYSTEM 계정으로 실행하도록 바꾸자 매일 밤 실행됐다.",
 "SYSTEM", "Administrator",
 "로그온 필요 설정 때문에 야간 백업이 건너뜀",
 "작업 스케줄러 작업이 '사용자가 로그온할 때만 실행'이라 로그인한 사람이 없으면 백업이 빠졌다. 실행 계정을 SYSTEM 으로 바꾸면 매일 돈다.",
 rw_alike=True)

# ---- git refs ----
item("b7-ref-en-inkscape", "git_ref", "en", "prose",
 "Inkscape extension build uses the wrong branch",
 "The packaged Inkscape extension lacked the fix users asked for. The release script cloned the repository at its default branch, which is still master, while the fix had been merged into develop. Passing --branch develop to the clone picked up the fix.",
 "develop", "main",
 "Extension release cloned master instead of the branch with the fix",
 "The release script's git clone took the default branch, master, but the fix lives in develop; cloning with --branch develop ships it.")
item("b7-ref-en-openscad", "git_ref", "en", "prose",
 "Bisecting an OpenSCAD rendering regression",
 "A model rendered with holes after updating OpenSCAD from source. git bisect between the release tag and HEAD blamed a CGAL update, and reverting to HEAD~3 rendered the model correctly.",
 "HEAD~3", "HEAD~1")
item("b7-ref-ko-audacity", "git_ref", "ko", "prose",
 "Audacity 포크 동기화 후 빌드 실패",
 "포크한 Audacity 저장소에서 git pull 뒤 빌드가 깨졌다. origin 이 본 저장소가 아닌 내 포크를 가리키고 있어 오래된 submodule 이 따라왔다. git fetch upstream 후 upstream/master 로 리베이스하자 빌드가 됐다.",
 "upstream/master", "origin/master",
 "Audacity 포크는 upstream/master 로 리베이스해야 빌드됨",
 "Audacity 포크에서 pull 해도 origin 이 내 포크라 submodule 이 옛것이다. upstream 을 fetch 하고 upstream/master 위로 리베이스하면 빌드가 다시 된다.")
item("b7-ref-ko-merge", "git_ref", "mixed", "prose",
 "병합 충돌 해결에서 잘못된 쪽을 택함",
 "Hyprland 설정 저장소를 리베이스하다 충돌이 난 파일에서 내 변경을 살리려고 git checkout --theirs 를 썼다. 리베이스 중에는 --theirs 가 내 커밋을 뜻한다. 그렇게 해서 내 설정이 유지됐다.",
 "--theirs", "--ours")

# ---- capabilities ----
item("b7-cap-en-bind", "capability", "en", "config",
 "BIND 9 in a container cannot open port 53",
 "The named container exited with permission denied binding port 53 after we dropped all capabilities. Adding back only CAP_NET_BIND_SERVICE in the compose file let named bind the port while it still runs as an unprivileged user.",
 "CAP_NET_BIND_SERVICE", "CAP_NET_RAW",
 "named needs CAP_NET_BIND_SERVICE once capabilities are dropped",
 "With cap_drop ALL the BIND 9 container cannot bind 53; cap_add CAP_NET_BIND_SERVICE is the one capability it needs to keep running unprivileged.",
 rw_alike=True)
item("b7-cap-en-frigate", "capability", "en", "config",
 "Frigate cannot use the hardware decoder",
 "Frigate fell back to software decoding and pegged the CPU. Its container lacked CAP_PERFMON, which the Intel GPU stats need, and /dev/dri was not passed through. Adding the device and the capability brought hardware decoding back.",
 "CAP_PERFMON", "CAP_SYS_ADMIN")
item("b7-cap-ko-ping", "capability", "ko", "prose",
 "컨테이너 안에서 ping 이 안 됨",
 "헬스체크용 컨테이너에서 ping 이 'operation not permitted' 로 실패했다. 기본 capability 목록에서 NET_RAW 가 빠진 런타임이었다. --cap-add NET_RAW 로 실행하자 ping 이 됐다.",
 "NET_RAW", "NET_ADMIN")

# ---- encodings ----
item("b7-enc-en-sheets", "encoding", "en", "prose",
 "CSV exported from Google Sheets shows garbled accents in the old tool",
 "The import tool showed é as two odd characters in the CSV downloaded from Google Sheets. Sheets exports UTF-8, while the tool read the file as Windows-1252. Converting with iconv -f UTF-8 -t WINDOWS-1252 before the import fixed the names.",
 "Windows-1252", "ISO-8859-15",
 "Old importer reads Sheets' UTF-8 CSV as Windows-1252",
 "Accented names came out garbled because Google Sheets writes UTF-8 and the import tool assumes Windows-1252; run iconv -f UTF-8 -t WINDOWS-1252 on the CSV first.")
item("b7-enc-en-base64", "encoding", "en", "code",
 "Webhook signature check fails for some payloads",
 "About one webhook in four was rejected with a bad signature. The sender encodes the HMAC with base64url, and our check compared it to standard base64, which differs whenever the digest contains + or /. Decoding with base64.urlsafe_b64decode made every signature match.",
 "base64.urlsafe_b64decode", "base64.b64decode")
item("b7-enc-ko-euckr", "encoding", "ko", "prose",
 "관공서 CSV 의 한글이 깨짐",
 "공공데이터 포털에서 받은 CSV 를 pandas 로 읽자 한글이 깨졌다. 파일이 UTF-8 이 아니라 CP949 로 저장되어 있었다. read_csv 에 encoding='cp949' 를 주자 제대로 읽혔다.",
 "cp949", "euc-kr",
 "공공데이터 CSV 는 cp949 로 읽어야 함",
 "공공데이터 포털 CSV 는 UTF-8 이 아닌 CP949 라 pandas 가 한글을 깨뜨린다. pd.read_csv(..., encoding='cp949') 로 읽으면 된다.")
item("b7-enc-ko-nfd", "encoding", "ko", "prose",
 "macOS 에서 올린 한글 파일명이 검색되지 않음",
 "맥에서 Nextcloud 로 올린 한글 파일이 리눅스 서버에서 이름으로 검색되지 않았다. macOS 가 파일명을 NFD 로 분해해 저장했기 때문이다. convmv 로 파일명을 NFC 로 바꾸자 검색됐다.",
 "NFC", "NFD")

# ---- checksums and commit ids ----
item("b7-sum-en-iso", "checksum", "en", "prose",
 "Installer ISO fails verification on the build host",
 "The automated install aborted because the ISO did not match its expected SHA-256, which starts with 9f86d081. The mirror had served a truncated file. Downloading again from another mirror produced the expected digest and the install went through.",
 "9f86d081", "9f86d018",
 "Truncated ISO from a mirror failed the SHA-256 check",
 "A mirror handed out a truncated ISO, so the installer's SHA-256 check (expected 9f86d081...) failed; fetching from a different mirror gave the right digest.")
item("b7-sum-en-commit", "checksum", "en", "prose",
 "Regression in the Hyprland config generator",
 "Window rules stopped applying after a pull of the dotfiles generator. The regression came from commit 3e7c1a9, which renamed the windowrulev2 keys. Reverting 3e7c1a9 restored the rules until the generator caught up.",
 "3e7c1a9", "3e7c1a6")
item("b7-sum-ko-guix", "checksum", "mixed", "prose",
 "Guix 패키지 정의의 해시 불일치",
 "직접 만든 Guix 패키지를 빌드하자 hash mismatch 로 실패했다. 업스트림이 같은 태그의 tarball 을 다시 올려서 sha256 이 0a1b2c 로 시작하는 값으로 바뀌었다. guix hash 로 새 값을 계산해 정의를 고치자 빌드됐다.",
 "0a1b2c", "0a1c2b")

# ---- keyboard shortcuts ----
item("b7-key-en-hypr", "shortcut", "en", "config",
 "Hyprland screenshot binding does nothing",
 "The screenshot key stopped working after moving to Hyprland. The bind line used SUPER SHIFT, S, exec, grim but the key combination SUPER+SHIFT+S was already taken by another rule earlier in the file. Removing the older bind made SUPER+SHIFT+S take the screenshot.",
 "SUPER+SHIFT+S", "SUPER+S",
 "Duplicate SUPER+SHIFT+S bind swallowed the screenshot",
 "An earlier bind in hyprland.conf already held SUPER+SHIFT+S, so the grim screenshot binding never fired; delete the older one.")
item("b7-key-en-obsidian", "shortcut", "en", "prose",
 "Obsidian command palette shortcut opens the browser's devtools",
 "In Obsidian's web clipper the command palette would not open. Ctrl+Shift+I was bound to the palette, but the Electron shell catches Ctrl+Shift+I for developer tools first. Moving the palette to Ctrl+P fixed it.",
 "Ctrl+P", "Ctrl+Shift+P")
item("b7-key-ko-hwp", "shortcut", "ko", "prose",
 "한글 프로그램에서 표 셀 합치기 단축키가 안 먹음",
 "한글에서 표 셀을 선택하고 M 을 눌러도 셀이 합쳐지지 않았다. 셀 블록이 아니라 글자 블록이 잡혀 있었다. F5 를 눌러 셀 블록으로 선택한 뒤 M 을 누르자 합쳐졌다.",
 "F5", "F3",
 "HWP 셀 합치기는 F5 셀 블록에서만 됨",
 "한글 표에서 M 으로 셀을 합치려면 글자 블록이 아닌 셀 블록이어야 한다. F5 로 셀 블록을 잡고 M.")

# ---- SQL keywords ----
item("b7-sql-en-postgis", "sql_keyword", "en", "code",
 "Parcels without owners vanish from the QGIS report",
 "The parcel report made in QGIS from a PostGIS view dropped every parcel with no owner on record. The view joined parcels to owners with INNER JOIN. Rewriting it with LEFT JOIN kept the unowned parcels with a null owner.",
 "LEFT JOIN", "RIGHT JOIN",
 "INNER JOIN in the PostGIS view hid unowned parcels",
 "Because the PostGIS view behind the QGIS report used INNER JOIN against owners, parcels with no owner disappeared; a LEFT JOIN keeps them with a null owner.")
item("b7-sql-en-union", "sql_keyword", "en", "code",
 "Monthly totals come out too low",
 "The Paperless-ngx export report summed invoice amounts from two tables combined with UNION, which removed rows that happened to be identical in both. Switching to UNION ALL kept the duplicates and the totals matched the ledger.",
 "UNION ALL", "UNION DISTINCT")
item("b7-sql-ko-iso", "sql_keyword", "ko", "prose",
 "재고 차감이 동시에 일어나면 음수가 됨",
 "주문이 몰리면 재고가 음수로 내려갔다. 트랜잭션 격리 수준이 READ COMMITTED 라 두 트랜잭션이 같은 재고를 읽고 둘 다 차감했다. SELECT ... FOR UPDATE 로 행을 잠그자 음수가 사라졌다.",
 "FOR UPDATE", "FOR SHARE",
 "동시 주문 재고 음수는 FOR UPDATE 로 행 잠금",
 "READ COMMITTED 에서는 두 주문이 같은 재고 값을 읽고 각각 빼서 음수가 된다. 재고 행을 SELECT ... FOR UPDATE 로 잠그면 해결된다.",
 rw_alike=True)
item("b7-sql-ko-cascade", "sql_keyword", "ko", "code",
 "사용자 삭제 시 게시물까지 지워짐",
 "탈퇴한 사용자의 게시물이 통째로 사라졌다. posts.user_id 외래 키가 ON DELETE CASCADE 로 정의되어 있었다. ON DELETE SET NULL 로 바꾸자 게시물은 남고 작성자만 비었다.",
 "SET NULL", "RESTRICT")

# ---- logical operators ----
item("b7-logic-en-rspamd", "logic_operator", "en", "config",
 "Rspamd rule flags every newsletter",
 "A custom multimap rule marked all newsletters as spam. Its expression was FROM_BULK | !DKIM_ALLOW, so any bulk sender matched. Changing it to FROM_BULK & !DKIM_ALLOW flagged only unsigned bulk mail.",
 "FROM_BULK & !DKIM_ALLOW", "FROM_BULK & DKIM_ALLOW",
 "Rspamd bulk rule needed & rather than |",
 "With FROM_BULK | !DKIM_ALLOW every bulk sender scored as spam; the intended rule is FROM_BULK & !DKIM_ALLOW, which catches only bulk mail without a valid DKIM signature.")
item("b7-logic-en-shell", "logic_operator", "en", "code",
 "Backup script deletes the old snapshot even when the new one failed",
 "The nightly script ran restic backup; restic forget --prune, so the prune ran whatever the backup did. Joining them with && runs the prune only after a successful backup.",
 "&&", "||")
item("b7-logic-ko-sheets", "logic_operator", "mixed", "code",
 "Google Sheets 필터 수식이 너무 많은 행을 보여 줌",
 "FILTER 로 '서울'이면서 금액이 100만 원 이상인 행만 보려 했는데 거의 모든 행이 나왔다. 조건을 (B2:B=\"서울\")+(C2:C>=1000000) 으로 더해서 OR 가 됐다. 곱하기 (B2:B=\"서울\")*(C2:C>=1000000) 로 바꾸자 AND 로 걸러졌다.",
 "AND 로", "OR 로")

# ---- cron schedules ----
item("b7-cron-en-certbot", "cron", "en", "config",
 "Squid log rotation runs during the busiest hour",
 "The proxy slowed every weekday at noon. The crontab line 0 12 * * 1-5 squid -k rotate ran the rotation then, and the compression of the rotated logs ate the disk. Moving it to 0 3 * * * put the rotation at night.",
 "0 3 * * *", "0 3 * * 0",
 "Squid rotate scheduled at noon slowed the proxy",
 "squid -k rotate was in cron as 0 12 * * 1-5, so log compression hit the disk at peak time each weekday; schedule it as 0 3 * * * instead.")
item("b7-cron-en-paperless", "cron", "en", "config",
 "Paperless-ngx index optimisation runs too often",
 "The Paperless-ngx server was busy around the clock. The index optimise task had been scheduled as */5 * * * * while testing and never changed back. Setting it to 0 0 * * * made the server idle again.",
 "*/5 * * * *", "*/15 * * * *")
item("b7-cron-ko-smart", "cron", "ko", "config",
 "주간 디스크 점검이 실행되지 않음",
 "매주 일요일 새벽에 돌아야 할 smartctl 장기 검사가 한 번도 돌지 않았다. crontab 에 0 4 * * 7 대신 0 4 * 7 * 로 적어 7월에만 실행되게 되어 있었다. 필드를 고치자 매주 실행됐다.",
 "0 4 * 7 *", "0 4 7 * *",
 "crontab 필드 순서 실수로 smartctl 검사가 7월에만 실행",
 "일요일 새벽 smartctl 장기 검사를 0 4 * 7 * 로 적어 놓아 7월에만 돌게 되어 있었다. 요일은 다섯 번째 필드이므로 0 4 * * 7 로 써야 한다.")

# ---- CIDR prefixes ----
item("b7-cidr-en-squid", "cidr", "en", "config",
 "Squid lets the guest Wi-Fi use the office proxy",
 "Guests could browse through the office proxy. The acl localnet src 10.0.0.0/8 line covered the guest network 10.20.0.0/16 too. Narrowing it to 10.10.0.0/16, the office range, shut the guests out.",
 "10.10.0.0/16", "10.10.0.0/24",
 "Too-broad localnet ACL opened Squid to guests",
 "acl localnet src 10.0.0.0/8 also matched the guest range 10.20.0.0/16, so guests used the proxy; restrict localnet to the office's 10.10.0.0/16.")
item("b7-cidr-ko-wg", "cidr", "ko", "config",
 "strongSwan 터널 뒤 사무실 일부만 접근됨",
 "지사에서 본사 서버 일부에만 접속됐다. leftsubnet 이 192.168.0.0/24 로 되어 있어 192.168.1.x 대역이 터널에 포함되지 않았다. 192.168.0.0/23 으로 넓히자 두 대역 모두 접속됐다.",
 "192.168.0.0/23", "192.168.0.0/22",
 "leftsubnet 이 /24 라 192.168.1.x 가 터널 밖",
 "strongSwan leftsubnet=192.168.0.0/24 는 192.168.1.x 를 빼 버려 지사에서 본사 일부만 보였다. 192.168.0.0/23 으로 잡으면 둘 다 들어간다.")
item("b7-cidr-ko-bind", "cidr", "ko", "config",
 "BIND 9 가 사내망 재귀 질의를 거부",
 "새 층의 PC 들이 사내 DNS 로 외부 도메인을 조회하지 못했다. named.conf 의 allow-recursion 에 172.16.0.0/16 만 있고 새 층은 172.17.0.0/16 이었다. 172.16.0.0/15 로 바꾸자 조회됐다.",
 "172.16.0.0/15", "172.16.0.0/12")

# ---- HTTP headers ----
item("b7-hdr-en-vault", "http_header", "en", "config",
 "Vaultwarden logs show the proxy's address for every login",
 "Fail2ban could not ban anyone because Vaultwarden logged the reverse proxy's IP for every failed login. Vaultwarden reads the client address from the header named by IP_HEADER, which defaulted to X-Real-IP, and the proxy only set X-Forwarded-For. Setting IP_HEADER=X-Forwarded-For logged the real clients.",
 "IP_HEADER=X-Forwarded-For", "IP_HEADER=X-Real-IP",
 "Vaultwarden's IP_HEADER did not match what the proxy sends",
 "Every failed login showed the proxy's IP, so fail2ban was useless: Vaultwarden looks at X-Real-IP by default and the proxy only adds X-Forwarded-For. IP_HEADER=X-Forwarded-For fixes the logged address.")
item("b7-hdr-en-immich", "http_header", "en", "config",
 "Immich uploads fail behind the proxy at 1 MB",
 "Large photo uploads to Immich failed behind the company proxy with 413. The proxy stripped the Content-Length header from chunked uploads and applied its default body limit. Allowing Transfer-Encoding through and raising the limit let uploads finish.",
 "Content-Length", "Content-Type")
item("b7-hdr-ko-zulip", "http_header", "mixed", "config",
 "Zulip 웹소켓이 프록시 뒤에서 끊김",
 "Zulip 이 사내 프록시 뒤에서 실시간 메시지를 받지 못했다. 프록시가 Upgrade 헤더를 넘기지 않아 웹소켓 연결이 일반 요청으로 처리됐다. Upgrade 와 Connection 헤더를 전달하게 하자 실시간 수신이 됐다.",
 "Upgrade", "Origin",
 "프록시가 Upgrade 헤더를 빼서 Zulip 웹소켓 실패",
 "사내 프록시가 Upgrade 헤더를 전달하지 않아 Zulip 웹소켓이 일반 HTTP 로 떨어졌다. Upgrade, Connection 을 넘기도록 설정하면 메시지가 실시간으로 온다.")

# ---- delimiters ----
item("b7-delim-en-calibre", "delimiter", "en", "prose",
 "Calibre imports author lists as a single author",
 "Books added from a CSV catalogue showed all co-authors as one long author name. Calibre splits authors on an ampersand, and the catalogue separated them with a semicolon. Replacing the semicolons with ampersands before the import split the authors.",
 "semicolon", "comma",
 "Calibre needs & between authors, not semicolons",
 "Co-authors became one author in Calibre because the CSV used a semicolon between names while Calibre splits only on &; swap them before importing.")
item("b7-delim-en-audacity", "delimiter", "en", "prose",
 "Audacity label import puts every label at zero",
 "Labels imported from a spreadsheet all landed at the start of the track. Audacity's label files are tab-separated, and the exported file used commas. Saving as tab-separated text made the labels land at their times.",
 "tab-separated", "space-separated")
item("b7-delim-ko-excel", "delimiter", "ko", "prose",
 "유럽 지사 CSV 가 한 열로 열림",
 "독일 지사에서 보낸 CSV 를 엑셀로 열자 모든 값이 한 열에 들어갔다. 지사 엑셀은 소수점으로 쉼표를 쓰기 때문에 구분자로 세미콜론을 썼다. 데이터 가져오기에서 구분자를 세미콜론으로 지정하자 열이 나뉘었다.",
 "세미콜론", "탭",
 "독일 지사 CSV 는 세미콜론 구분",
 "쉼표를 소수점으로 쓰는 독일 엑셀이 만든 CSV 라 구분자가 세미콜론이다. 그냥 열면 한 열로 뭉치니 데이터 가져오기에서 세미콜론을 지정해야 한다.",
 rw_alike=True)

# ---- shell redirections ----
item("b7-redir-en-smart", "shell_operator", "en", "code",
 "Disk health log only ever holds the last check",
 "The weekly report had one entry instead of a history. The cron job ran smartctl -H /dev/sda > /var/log/smart.log, which truncates the file each time. Writing smartctl -H /dev/sda >> /var/log/smart.log appended each check.",
 ">> /var/log/smart.log", "> /var/log/smart.log",
 "smartctl cron job overwrote its log each week",
 "Because the job used smartctl -H /dev/sda > /var/log/smart.log, only the newest check survived; smartctl -H /dev/sda >> /var/log/smart.log keeps them all.")
item("b7-redir-en-stderr", "shell_operator", "en", "code",
 "Error messages missing from the darktable export log",
 "The batch export log had no errors even when exports failed. The script ran darktable-cli ... 2>&1 > export.log, which sends stderr to the terminal because the redirections apply left to right. Writing darktable-cli ... > export.log 2>&1 captured both.",
 "> export.log 2>&1 captured", "2>&1 > export.log captured")
item("b7-redir-ko-tee", "shell_operator", "ko", "code",
 "sudo 로 설정 파일에 덧붙이기가 권한 오류",
 "sudo echo 'vm.swappiness=10' >> /etc/sysctl.conf 가 Permission denied 로 실패했다. 리다이렉션은 sudo 가 아닌 현재 셸이 처리하기 때문이다. echo 'vm.swappiness=10' | sudo tee -a /etc/sysctl.conf 로 바꾸자 덧붙여졌다.",
 "tee -a", "tee",
 "sudo 와 >> 리다이렉션 권한 문제는 tee -a",
 ">> 는 sudo 가 아니라 일반 셸이 열어서 /etc/sysctl.conf 에 못 쓴다. echo 'vm.swappiness=10' | sudo tee -a /etc/sysctl.conf 처럼 tee -a 를 쓰면 된다.")

# ---- network interfaces ----
item("b7-if-en-frigate", "interface", "en", "config",
 "Frigate's cameras drop after the NAS reboots",
 "Camera streams to Frigate stalled after every NAS reboot. The cameras sit on a VLAN bridged to enp3s0, but after a reboot the interfaces were renamed and the VLAN came up on enp4s0. Pinning the names with a systemd .link file by MAC address kept the VLAN on enp3s0.",
 "enp3s0", "enp5s0",
 "Interface renaming moved the camera VLAN off enp3s0",
 "After NAS reboots the NIC names swapped and the camera VLAN came up on enp4s0 instead of enp3s0, so Frigate lost its streams; a systemd .link file keyed on the MAC pins the name.")
item("b7-if-ko-pihole", "interface", "ko", "config",
 "Pi-hole 이 무선 클라이언트 질의를 받지 않음",
 "Pi-hole 을 라즈베리 파이에 설치했는데 무선으로 붙은 기기는 광고가 그대로 보였다. Pi-hole 이 eth0 에서만 질의를 받도록 설정되어 있었고 무선 기기는 wlan0 쪽으로 들어왔다. 모든 인터페이스에서 받도록 바꾸자 차단됐다.",
 "wlan0", "wlan1",
 "Pi-hole 이 eth0 만 듣고 wlan0 은 무시",
 "라즈베리 파이의 Pi-hole 이 eth0 인터페이스에서만 DNS 를 받아, wlan0 으로 들어온 무선 기기는 광고 차단이 안 됐다. 모든 인터페이스 허용으로 바꾸면 된다.")
item("b7-if-ko-iscsi", "interface", "ko", "config",
 "iSCSI 트래픽이 관리망으로 흐름",
 "스토리지 전용 포트를 두었는데도 iSCSI 트래픽이 관리망 NIC 로 나갔다. iscsiadm 인터페이스 바인딩이 없어 기본 경로를 탔다. iface.net_ifacename 을 ens224 로 지정하자 전용 포트로만 흘렀다.",
 "ens224", "ens192")

# A few rewordings of texts with no look-alike, over the same tools.
REWORDS = []
def reword(iid, cat, lang, form, title, content, rt, rc):
    REWORDS.append((iid, cat, lang, form, title, content, rt, rc))

reword("b7-rw-en-inkscape", "rewording", "en", "prose",
 "Inkscape export crops the drawing",
 "PNGs exported from the command line were cut off at the right edge. inkscape --export-type=png exported the page area, and the drawing extended past the page. Adding --export-area-drawing exported the whole drawing.",
 "Command-line Inkscape export cut the drawing at the page edge",
 "inkscape --export-type=png renders the page, not the drawing, so anything outside the page was lost; pass --export-area-drawing to export all of it.")
reword("b7-rw-ko-jellyfin", "rewording", "ko", "prose",
 "Jellyfin 자막이 네모로 깨짐",
 "Jellyfin 에서 한국어 자막을 켜면 글자가 네모로 보였다. 서버에서 자막을 영상에 입히는 과정에 쓸 한글 글꼴이 없었기 때문이다. 대체 글꼴 폴더에 나눔고딕을 넣고 대체 글꼴 사용을 켜자 정상으로 보였다.",
 "Jellyfin 한국어 자막 네모 문제와 대체 글꼴",
 "서버가 자막을 화면에 입힐 때 쓸 한글 폰트가 없어서 Jellyfin 한국어 자막이 네모로 나왔다. 대체 글꼴 경로에 나눔고딕을 두고 대체 글꼴 옵션을 켜면 해결된다.")

def swap(text, old, new):
    if isinstance(old, tuple):
        # Two strings exchanged in one pass: the order of two steps.
        x, y = old
        return re.subn(r'(?<![\w.\-/\\])(' + re.escape(x) + '|' + re.escape(y) + r')', lambda m: y if m.group(1) == x else x, text)
    # A Hangul detail may carry a particle or an ending after it (이상의, 오백으로).
    tail = '' if '\uac00' <= old[-1] <= '\ud7a3' else r'(?![\w\-])'
    pat = r'(?<![\w.\-/\\])' + re.escape(old) + tail
    return re.subn(pat, lambda m: new, text)

def build(items, rewords, out):
    here = os.path.dirname(os.path.abspath(__file__))
    errs, lines = [], []
    for (iid, cat, lang, form, title, content, old, new, rt, rc, rw_alike) in items:
        fr, to = (" ⇄ ".join(old), " ⇄ ".join(reversed(old))) if isinstance(old, tuple) else (old, new)
        bt, n1 = swap(title, old, new)
        bc, n2 = swap(content, old, new)
        if n1 + n2 == 0:
            errs.append(f"{iid}: {old!r} not found")
        base = {"category": cat, "lang": lang, "form": form}
        lines.append(dict(id=iid + "-alike", label="distinct", variant="one_detail", **base,
                          **{"from": fr, "to": to}, a={"title": title, "content": content}, b={"title": bt, "content": bc}))
        if rt is None:
            continue
        if any(o not in rt + "\n" + rc for o in (old if isinstance(old, tuple) else (old,))):
            errs.append(f"{iid}: rewording lacks {old!r}")
        lines.append(dict(id=iid + "-reworded", label="reworded", variant="rewrite", **base,
                          a={"title": title, "content": content}, b={"title": rt, "content": rc}))
        if rw_alike:
            wt, m1 = swap(rt, old, new)
            wc, m2 = swap(rc, old, new)
            if m1 + m2 == 0:
                errs.append(f"{iid}: {old!r} not in its rewording")
            lines.append(dict(id=iid + "-rwalike", label="distinct", variant="reworded_one_detail", **base,
                              **{"from": fr, "to": to}, a={"title": title, "content": content}, b={"title": wt, "content": wc}))
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

build(ITEMS, REWORDS, "pairs-lookalike-own7.jsonl")
