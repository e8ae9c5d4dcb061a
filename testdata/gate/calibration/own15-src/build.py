"""Builds own15.jsonl: PII families the gate's PII stage did not name (session 15).

Run: python3 build.py ../own15.jsonl  (deterministic: values come from a seeded RNG).
Values have real formats (Luhn IMEIs, mod-97 IBANs, 32-byte WireGuard keys, base64url JWK
members, 32-hex Sentry keys) but are random, not anyone's credentials.
"""
import base64, json, random, sys

R = random.Random(20261207)


def b64u(n):
    return base64.urlsafe_b64encode(bytes(R.getrandbits(8) for _ in range(n))).decode().rstrip("=")


def b64(n):
    return base64.b64encode(bytes(R.getrandbits(8) for _ in range(n))).decode()


def hexs(n):
    return "".join(R.choice("0123456789abcdef") for _ in range(n))


def alnum(n):
    return "".join(R.choice("ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz0123456789") for _ in range(n))


def luhn_ok(d):
    s = 0
    for i, c in enumerate(reversed(d)):
        v = int(c)
        if i % 2 == 1:
            v *= 2
            if v > 9:
                v -= 9
        s += v
    return s % 10 == 0


def imei(prefix):
    body = prefix + "".join(R.choice("0123456789") for _ in range(14 - len(prefix)))
    for c in "0123456789":
        if luhn_ok(body + c):
            return body + c


def not_luhn(prefix):
    while True:
        d = prefix + "".join(R.choice("0123456789") for _ in range(15 - len(prefix)))
        if not luhn_ok(d):
            return d


def iban(cc, bban):
    n = "".join(str(int(c, 36)) for c in bban + cc + "00")
    return cc + "%02d" % (98 - int(n) % 97) + bban


def ovpn_static():
    return "\n".join(hexs(32) for _ in range(16))


CASES = []


def add(fam, lang, want, title, content, kinds=None):
    c = {"id": "c15-%s-%02d" % (fam, sum(1 for x in CASES if x["class"] == fam) + 1), "lang": lang, "want": want, "class": fam}
    if kinds:
        c["kinds"] = kinds
    c["title"], c["content"] = title, content
    CASES.append(c)


# 1. JWK private members.
add("jwk", "en", "pii", "Signing JWKS committed with its private members",
    "config/jwks.json in the auth-service repo is the signing set itself, not the public one: `jose` 5.2 loads it with `importJWK`, and the file holds the RSA private members.\n```json\n{\"keys\": [{\"kty\": \"RSA\", \"kid\": \"2024-09-sig\", \"use\": \"sig\", \"alg\": \"RS256\",\n  \"n\": \"%s\", \"e\": \"AQAB\",\n  \"d\": \"%s\",\n  \"p\": \"%s\", \"q\": \"%s\",\n  \"dp\": \"%s\", \"dq\": \"%s\", \"qi\": \"%s\"}]}\n```\nRotate the kid and serve only n/e from /.well-known/jwks.json." % (b64u(128), b64u(128), b64u(64), b64u(64), b64u(64), b64u(64), b64u(64)),
    ["secret"])
add("jwk", "en", "pii", "EC private JWK in the token signer's env",
    "The token signer reads `SIGNER_JWK` from its environment and the Helm values file has it inline:\n```yaml\nsigner:\n  jwk: '{\"kty\":\"EC\",\"crv\":\"P-256\",\"kid\":\"es256-2\",\"x\":\"%s\",\"y\":\"%s\",\"d\":\"%s\"}'\n```\n`helm get values signer -n auth` prints it to anyone with read on the namespace." % (b64u(32), b64u(32), b64u(32)),
    ["secret"])
add("jwk", "ko", "pii", "Keycloak 렐름 export 에 HS256 대칭키 JWK",
    "`kc.sh export --realm partners` 로 뽑은 realm.json 을 그대로 위키에 붙였는데, components 안에 HMAC 서명키가 JWK 로 들어 있습니다:\n```json\n{\"kty\": \"oct\", \"kid\": \"hmac-generated\", \"alg\": \"HS256\", \"k\": \"%s\"}\n```\n이 키로 누구나 partners 렐름 토큰을 만들 수 있으니 키를 재생성하고 위키 리비전을 지웠습니다." % b64u(32),
    ["secret"])
add("jwk", "ko", "pii", "Ed25519 개인 JWK 가 테스트 픽스처에 남음",
    "e2e 테스트 픽스처 fixtures/device-key.json 이 스테이징 기기 인증에 실제로 쓰이는 키였습니다:\n```json\n{\"kty\":\"OKP\",\"crv\":\"Ed25519\",\"kid\":\"device-7\",\"x\":\"%s\",\"d\":\"%s\"}\n```\n`d` 가 개인키라 스테이징 기기 등록을 취소하고 픽스처는 `jose.generateKeyPair('EdDSA')` 로 매번 새로 만들게 바꿨습니다." % (b64u(32), b64u(32)),
    ["secret"])
add("jwk", "en", "good", "JWKS endpoint serves two RSA keys during rotation",
    "During rotation `curl -s https://auth.internal/.well-known/jwks.json | jq '.keys[].kid'` returns both `2024-09-sig` and `2025-01-sig`; each entry carries only `kty`, `kid`, `use`, `alg`, `n` and `e` (\"e\": \"AQAB\", \"n\": \"%s\"). Verifiers cache it for 10 minutes (`Cache-Control: max-age=600`), so keep the old kid for at least that long after the switch." % b64u(128))
add("jwk", "ko", "good", "EC 공개 JWK 의 x, y 좌표 길이",
    "P-256 공개 JWK `{\"kty\":\"EC\",\"crv\":\"P-256\",\"x\":\"%s\",\"y\":\"%s\"}` 는 x, y 가 각각 32바이트라 base64url 로 43자입니다. go-jose v4 는 길이가 다르면 `square/go-jose: invalid EC key, missing x/y` 를 내므로 앞자리 0 을 잘라먹는 직렬화 코드가 원인이었습니다." % (b64u(32), b64u(32)))
add("jwk", "en", "placeholder", "RFC 7517's example EC private key",
    "RFC 7517 Appendix A.2 prints an EC private key for its examples: `{\"kty\":\"EC\",\"crv\":\"P-256\",\"x\":\"MKBCTNIcKUSDii11ySs3526iDZ8AiTo7Tu6KPAqv7D4\",\"y\":\"4Etl6SRW2YiLUrN5vfvVHuhp7x8PxltmWWlbbM4IFyM\",\"d\":\"870MB6gfuTJ4HtUnUvYMyJpr5eUZNP4Bk43bVdj3eAE\",\"use\":\"enc\",\"kid\":\"1\"}`. Our jwk_test.go parses it to check that `ParseKey` keeps `d` out of `PublicKey()`; it is the RFC's, not ours.")
add("jwk", "en", "placeholder", "Template for the signer's JWK secret",
    "The README's template for `SIGNER_JWK` is `{\"kty\":\"EC\",\"crv\":\"P-256\",\"x\":\"<base64url-x>\",\"y\":\"<base64url-y>\",\"d\":\"<base64url-private-scalar>\"}`; generate the real one with `step crypto jwk create pub.json priv.json --kty EC --crv P-256` and store priv.json in Vault at `secret/signer`.")

# 2. OpenVPN.
add("openvpn", "en", "pii", "client.ovpn in the onboarding doc has the static key",
    "The onboarding page attaches client.ovpn with the tls-auth key pasted inline; OpenVPN 2.6 accepts it with `key-direction 1`:\n```\n-----BEGIN OpenVPN Static key V1-----\n%s\n-----END OpenVPN Static key V1-----\n```\nAnyone holding it passes the HMAC firewall in front of the server, so it was regenerated with `openvpn --genkey secret ta.key`." % ovpn_static(),
    ["secret"])
add("openvpn", "ko", "pii", "tls-crypt 키가 인라인으로 들어간 프로필",
    "사내 VPN 프로필 office.ovpn 을 슬랙에 공유했는데 `<tls-crypt>` 블록에 키가 그대로 있습니다:\n```\n<tls-crypt>\n-----BEGIN OpenVPN Static key V1-----\n%s\n-----END OpenVPN Static key V1-----\n</tls-crypt>\n```\ntls-crypt 키는 제어 채널 암호화 키라 서버 쪽에서 `openvpn --genkey tls-crypt` 로 새로 만들고 프로필을 다시 배포했습니다." % ovpn_static(),
    ["secret"])
add("openvpn", "en", "pii", "Inline <key> block in a pfSense export",
    "pfSense's client export (openvpn-client-export 1.9) bundles the client's private key inline in the profile:\n```\n<key>\n-----BEGIN PRIVATE KEY-----\n%s\n-----END PRIVATE KEY-----\n</key>\n```\nThe profile was mailed to a contractor; revoke the client certificate in System > Cert. Manager and re-export." % "\n".join(b64(48) for _ in range(6)),
    ["secret"])
add("openvpn", "en", "pii", "auth-user-pass file shown in the ticket",
    "The client config has `auth-user-pass /etc/openvpn/client/login.conf`, and the ticket pasted that file:\n```\n$ sudo cat /etc/openvpn/client/login.conf\nvpn.jlee\nT7m#qR2vLx9k\n```\nOpenVPN reads the first line as the username and the second as the password; use `chmod 600` and `auth-nocache`, and reset this password in the RADIUS server.",
    ["password"])
add("openvpn", "ko", "pii", "auth-user-pass 자격증명 파일이 이미지에 포함됨",
    "Dockerfile 이 `COPY creds.txt /etc/openvpn/creds.txt` 를 하고 설정은 `auth-user-pass /etc/openvpn/creds.txt` 입니다. 이미지 레이어에서 꺼내 보면:\n```\n$ docker run --rm vpn-sidecar:1.4 cat /etc/openvpn/creds.txt\nsvc-batch\nWq9!zK4mTr7p\n```\n첫 줄이 사용자명, 둘째 줄이 비밀번호라 계정 비밀번호를 바꾸고 런타임 시크릿 마운트로 옮겼습니다.",
    ["password"])
add("openvpn", "en", "good", "tls-auth key referenced by file, not inline",
    "Keep the HMAC key out of the profile: `tls-auth /etc/openvpn/ta.key 1` on the client and `tls-auth ta.key 0` on the server, generated with `openvpn --genkey secret ta.key`. On OpenVPN 2.5+ prefer `tls-crypt tc.key`, which also encrypts the control channel; a mismatched direction shows `TLS Error: cannot locate HMAC in incoming packet`.")
add("openvpn", "ko", "placeholder", "Static key 블록 모양만 보여 주는 문서",
    "문서에는 키 본문을 생략한 형태만 둡니다:\n```\n<tls-crypt>\n-----BEGIN OpenVPN Static key V1-----\n...\n-----END OpenVPN Static key V1-----\n</tls-crypt>\n```\n본문은 16줄의 16진수이고, 실제 키는 `openvpn --genkey tls-crypt-v2-client` 로 클라이언트마다 따로 만듭니다.")
add("openvpn", "en", "placeholder", "auth-user-pass template in the runbook",
    "The runbook's template for `auth-user-pass /etc/openvpn/login.conf` is two lines:\n```\nYOUR_USERNAME\nYOUR_PASSWORD\n```\nFill it from Vault with `vault kv get -field=password secret/vpn/$USER`, then `chmod 600 /etc/openvpn/login.conf`; OpenVPN 2.6 refuses a world-readable file with `WARNING: file is group or others accessible`.")

# 3. Cookies.
add("cookies", "en", "pii", "yt-dlp cookies.txt with a GitHub session",
    "To fetch private release assets the job runs `yt-dlp --cookies cookies.txt`, and the exported file is in the repo:\n```\n# Netscape HTTP Cookie File\n.github.com\tTRUE\t/\tTRUE\t1767225600\tlogged_in\tyes\ngithub.com\tFALSE\t/\tTRUE\t1767225600\tuser_session\t%s\n```\n`user_session` is a full login; sign out all sessions in Settings > Sessions." % alnum(48),
    ["secret"])
add("cookies", "ko", "pii", "관리자 페이지 쿠키 파일이 크롤러 저장소에 있음",
    "크롤러가 `curl -b cookies.txt` 로 백오피스에 로그인 없이 들어가는데, 그 파일이 커밋돼 있습니다:\n```\n# Netscape HTTP Cookie File\nadmin.shopnara.co.kr\tFALSE\t/\tTRUE\t1798761600\tsessionid\t%s\nadmin.shopnara.co.kr\tFALSE\t/\tFALSE\t1798761600\tlang\tko\n```\nsessionid 는 관리자 세션이라 Django 에서 `Session.objects.all().delete()` 로 전부 끊었습니다." % alnum(32).lower(),
    ["secret"])
add("cookies", "en", "pii", "Set-Cookie in curl -v output pasted into the issue",
    "`curl -v -X POST https://billing.harbourline.io/login` shows the login worked, but the issue pastes the response headers whole:\n```\n< HTTP/2 302\n< set-cookie: __Host-session=%s; Path=/; Secure; HttpOnly; SameSite=Lax\n< location: /dashboard\n```\nThat cookie is valid for 14 days; revoke it with `DELETE /api/sessions/current`." % alnum(40),
    ["secret"])
add("cookies", "en", "pii", "GitLab session cookie in a HAR excerpt",
    "The HAR file attached to the support case carries the request headers of the failing merge request page:\n```\nCookie: preferred_language=en; _gitlab_session=%s; event_filter=all\n```\nGitLab 16.8 keeps `_gitlab_session` for a week; ask the user to sign out everywhere." % hexs(32),
    ["secret"])
add("cookies", "ko", "pii", "PHPSESSID 가 에러 리포트에 그대로",
    "PHP 8.2 의 display_errors 가 켜져 있어 500 페이지에 요청 헤더가 찍혔습니다: `Cookie: PHPSESSID=%s; cart=3`. 이 값으로 해당 사용자 세션을 그대로 가져갈 수 있어 `session_regenerate_id(true)` 를 로그인 직후에 부르도록 고쳤습니다." % alnum(26).lower(),
    ["secret"])
add("cookies", "en", "good", "cookies.txt that only holds preferences",
    "The scraper's cookies.txt carries no login, only preferences, so it can live in the repo:\n```\n# Netscape HTTP Cookie File\n.docs.rs\tTRUE\t/\tTRUE\t1767225600\trustdoc-theme\tayu\n.docs.rs\tTRUE\t/\tFALSE\t1767225600\tcookie_consent\ttrue\n```\nwget 1.21 reads it with `--load-cookies cookies.txt`; a line with fewer than 7 tab-separated fields is skipped without a warning.")
add("cookies", "ko", "good", "로그아웃 응답의 Set-Cookie",
    "로그아웃 API 는 `Set-Cookie: sessionid=; Max-Age=0; Path=/; HttpOnly` 를 돌려줘야 하는데 Path 를 빼먹어 /admin 경로의 쿠키가 남았습니다. Django 4.2 의 `response.delete_cookie('sessionid', path='/')` 로 고쳤고, Chrome DevTools Application 탭에서 지워진 것을 확인했습니다.")
add("cookies", "en", "placeholder", "cookies.txt format in the downloader docs",
    "The downloader's docs show the cookies.txt format with a placeholder value:\n```\n# Netscape HTTP Cookie File\n.example.com\tTRUE\t/\tFALSE\t0\tsession_id\tYOUR_SESSION_COOKIE\n```\nFields are domain, include-subdomains flag, path, secure, expiry (0 for a session cookie), name and value; export a real one with the \"Get cookies.txt LOCALLY\" extension.")

# 4. URL-encoded e-mail.
add("urlmail", "en", "pii", "E-mail in the lookup endpoint's access log",
    "nginx logs the full query string, and the lookup endpoint takes the address in it:\n```\n10.2.4.17 - - [02/Dec/2026:09:14:03 +0000] \"GET /api/v1/users/lookup?email=alice.kim%40gmail.com HTTP/1.1\" 200 412\n```\nMove the address into a POST body and add `log_format` without `$args` for /api/v1/users.",
    ["email"])
add("urlmail", "ko", "pii", "OAuth login_hint 에 이메일이 인코딩돼서 남음",
    "CloudFront 표준 로그의 cs-uri-query 에 `client_id=web&login_hint=minji.choi%40naver.com&prompt=login` 이 그대로 찍혔습니다. login_hint 는 IdP 에만 필요하니 리다이렉트 전에 서버 세션에 넣고 쿼리에서는 뺐습니다.",
    ["email"])
add("urlmail", "en", "pii", "Unsubscribe links carry the subscriber's address",
    "The Mailchimp-style unsubscribe link is built as `https://news.harbourline.io/unsubscribe?u=daniel.okafor%40outlook.com&list=weekly`, and link scanners in corporate gateways fetch it, so the address ends up in their logs. Sign an opaque id instead (`/unsubscribe/<hmac>`).",
    ["email"])
add("urlmail", "ko", "pii", "mailto 링크의 퍼센트 인코딩 주소",
    "고객센터 페이지 HTML 에 담당자 개인 메일이 `href=\"mailto:seoyeon.han%40kakao.com?subject=%EB%AC%B8%EC%9D%98\"` 로 박혀 있었습니다. 공용 주소 cs@ 로 바꾸고, 템플릿 lint 에 `%40` 을 포함한 mailto 검사를 추가했습니다.",
    ["email"])
add("urlmail", "en", "placeholder", "API docs show an encoded example address",
    "The API reference shows `GET /v2/contacts?email=user%40example.com`: the `@` must be percent-encoded in a query (RFC 3986 section 3.4 allows it raw, but our gateway's WAF rule 942100 blocks a raw `@`). `encodeURIComponent('user@example.com')` produces the same string.")
add("urlmail", "ko", "placeholder", "테스트 픽스처의 인코딩된 example.org 주소",
    "통합 테스트 픽스처는 `?email=qa.bot%40example.org` 를 씁니다. Go 의 `url.QueryEscape` 는 `@` 를 `%40` 으로 바꾸지만 `url.PathEscape` 는 그대로 두기 때문에 경로에 넣을 때 404 가 났습니다.")
add("urlmail", "en", "good", "Scoped npm package URL needs %40",
    "Behind our Artifactory proxy `npm view @types/node` failed with E404 because the proxy decoded the scope: the registry URL must keep it encoded, `https://registry.npmjs.org/%40types%2Fnode`. Setting `npmRemote.encodeScopedPackages=true` (Artifactory 7.71) fixed it.")

# 5. Payout / bank details.
add("bank", "en", "pii", "Payout request body logged by the API gateway",
    "Kong's http-log plugin writes request bodies, including the payout endpoint's:\n```json\n{\"payee\": \"Marcus Whitfield\", \"bank_account\": {\"account_number\": \"4839201756\", \"routing_number\": \"021000021\", \"account_type\": \"checking\"}, \"amount\": 184000}\n```\nAdd `/v1/payouts` to the plugin's `exclude_body` list and purge the bucket's logs for that route.",
    ["bank_account"])
add("bank", "en", "pii", "UK sort code and account number in a seed file",
    "db/seeds/suppliers.yml seeds staging from a copy of production:\n```yaml\n- supplier: Kestrel Joinery Ltd\n  account_name: Priya Raman\n  sort_code: \"20-45-77\"\n  account_number: \"83920174\"\n```\nReplace it with Faker's `bank.sort_code` and run `rails db:seed` again on staging.",
    ["bank_account"])
add("bank", "en", "pii", "Australian BSB in a Xero export",
    "The Xero payroll export in the shared drive has each employee's bank line: `{\"employee_id\": 8812, \"bsb\": \"063-019\", \"account_number\": \"1048 2736\", \"account_name\": \"T Nguyen\"}`. The drive folder was shared with the whole org; restrict it and rotate nothing (a BSB is not a credential, but it is pay data).",
    ["bank_account"])
add("bank", "ko", "pii", "정산 API 응답에 판매자 계좌",
    "판매자 정산 API 의 디버그 로그에 응답 본문이 통째로 남았습니다:\n```json\n{\"seller_id\": 40211, \"bank_code\": \"004\", \"account_number\": \"482301-04-117625\", \"account_holder\": \"강지호\", \"settle_date\": \"2026-12-05\"}\n```\n로그 레벨을 INFO 로 올리고 `account_number` 를 마스킹하는 Logback 필터를 넣었습니다.",
    ["bank_account"])
add("bank", "ko", "pii", "해외 송금 설정 YAML 의 IBAN",
    "해외 파트너 송금 설정 payout-partners.yaml 이 공개 저장소에 올라갔습니다:\n```yaml\npartners:\n  - name: Lindqvist Design AB\n    iban: %s\n    bic: NWBKGB2L\n```\n`git filter-repo --path payout-partners.yaml --invert-paths` 로 이력에서 지웠습니다." % iban("GB", "NWBK" + "".join(R.choice("0123456789") for _ in range(14))),
    ["iban"])
add("bank", "en", "pii", "IBAN in a Stripe Connect onboarding payload",
    "The onboarding webhook handler logs `external_account` at DEBUG: `{\"object\": \"bank_account\", \"country\": \"NL\", \"iban\": \"%s\", \"account_holder_name\": \"Sanne de Vries\"}`. Stripe sends only `last4` in events; this came from our own form post, so drop the field before logging." % iban("NL", "RABO" + "".join(R.choice("0123456789") for _ in range(10))),
    ["iban"])
add("bank", "en", "placeholder", "Payout schema with template values",
    "The OpenAPI example for `POST /v1/payouts` is `{\"account_number\": \"<ACCOUNT_NUMBER>\", \"routing_number\": \"<ROUTING_NUMBER>\", \"account_type\": \"checking\"}`; Prism 5 mocks it from the schema, and a 9-digit routing number that fails the ABA checksum gets `422 invalid_routing_number`.")
add("bank", "en", "placeholder", "Stripe's test bank account in the integration test",
    "The payouts integration test uses Stripe's documented test account: `{\"account_number\": \"000123456789\", \"routing_number\": \"110000000\", \"country\": \"US\"}`. With `000111111116` instead, Stripe returns `account_closed` on the payout, which is how we test the failure path.")
add("bank", "ko", "placeholder", "문서용 IBAN 예시",
    "송금 화면 입력 예시는 ISO 13616 문서에 나오는 `\"iban\": \"DE89370400440532013000\"` 을 씁니다. mod-97 검증을 통과하는 예시라 프런트 검증 테스트에도 그대로 쓰고, 공백을 넣은 `DE89 3704 0044 0532 0130 00` 도 받아야 합니다.")

# 6. IMEI.
IM = [imei("35"), imei("86"), imei("35"), imei("99"), imei("86"), imei("35")]
add("imei", "en", "pii", "MDM export lists each phone's IMEI beside its user",
    "The Intune device export attached to the audit ticket has one row per phone: `Device: Galaxy S23 | User: r.dunmore | IMEI: %s %s %s %s`. IMEIs are device identifiers tied to a person; trim the export to the compliance columns before attaching it." % (IM[0][:2], IM[0][2:8], IM[0][8:14], IM[0][14]),
    ["device_id"])
add("imei", "ko", "pii", "*#06# 화면 캡처를 OCR 한 텍스트",
    "분실 신고 티켓에 고객이 `*#06#` 화면을 찍어 올렸고 OCR 결과가 본문에 들어갔습니다:\n```\nIMEI1: %s\nIMEI2: %s\n```\n티켓 본문은 검색 색인에 들어가니 첨부로만 받고 본문 OCR 은 끄도록 Zendesk 트리거를 바꿨습니다." % (IM[1], IM[2]),
    ["device_id"])
add("imei", "en", "pii", "Crash reporter sends the IMEI",
    "Our Android crash reporter adds device info to every report: `{\"model\": \"Pixel 7\", \"os\": \"14\", \"imei\": \"%s\", \"app\": \"4.12.0\"}`. Since Android 10 apps cannot read the IMEI without READ_PRIVILEGED_PHONE_STATE; this came from an old MDM build. Drop the field and use `Settings.Secure.ANDROID_ID`." % IM[3],
    ["device_id"])
add("imei", "en", "pii", "MEID in a carrier activation log",
    "The activation service logs the carrier's response verbatim: `ACTIVATE ok line=7 MEID=%s plan=unl-5g`. Mask it to the last four digits in the log formatter; Splunk keeps these logs for 400 days." % IM[4],
    ["device_id"])
add("imei", "ko", "pii", "단말 등록 API 로그의 imei 파라미터",
    "단말 등록 API 가 쿼리 파라미터로 받는 `imei=%s` 가 ALB 액세스 로그에 남습니다. 단말 식별자는 개인정보라 등록은 POST 본문으로 바꾸고 S3 로그 버킷의 기존 객체는 수명주기 규칙으로 지웠습니다." % IM[5],
    ["device_id"])
add("imei", "en", "good", "A 15-digit build id is not an IMEI",
    "The bug report's IMEI field was empty; the 15-digit number beside it, %s, is the build id from `getprop ro.build.version.incremental` on the vendor's test ROM. Build ids are not Luhn-checked, which is how the triage bot told them apart in 2.3.1." % not_luhn("2409"))
add("imei", "ko", "good", "15자리 주문번호가 IMEI 로 오탐",
    "정산 배치의 주문번호 `%s` 는 15자리라 DLP 가 IMEI 로 잡았습니다. 주문번호는 날짜+일련번호라 Luhn 검사를 통과하지 않으니 DLP 규칙에 Luhn 검증을 켜서(Symantec DLP 16 의 `Luhn Check` 옵션) 오탐을 없앴습니다." % not_luhn("2026"))
add("imei", "en", "placeholder", "The emulator's all-zero IMEI",
    "On the Android emulator `adb shell service call iphonesubinfo 1` returns IMEI 000000000000000, so device-binding tests that expect a real TAC fail only on CI; set `-prop persist.radio.imei=...` is not honoured on API 34, so the test now skips when the TAC is 00000000.")

# 7. WireGuard.
add("wireguard", "en", "pii", "wg0.conf pasted into the VPN runbook",
    "The runbook shows the office gateway's config as deployed:\n```\n[Interface]\nAddress = 10.8.0.1/24\nListenPort = 51820\nPrivateKey = %s\n\n[Peer]\nPublicKey = %s\nAllowedIPs = 10.8.0.2/32\n```\nAnyone with that PrivateKey can impersonate the gateway; regenerate with `wg genkey` and redeploy." % (b64(32), b64(32)),
    ["secret"])
add("wireguard", "ko", "pii", "피어 설정의 PresharedKey 가 위키에",
    "사무실-IDC 터널 설정을 위키에 정리하면서 피어 블록을 그대로 붙였습니다:\n```\n[Peer]\nPublicKey = %s\nPresharedKey = %s\nEndpoint = gw.idc-seoul.net:51820\nAllowedIPs = 10.20.0.0/16\n```\nPresharedKey 는 양쪽이 공유하는 대칭키라 `wg genpsk` 로 새로 만들어 양쪽에 다시 넣었습니다." % (b64(32), b64(32)),
    ["secret"])
add("wireguard", "en", "pii", "wg showconf output in a support bundle",
    "The support bundle script runs `wg showconf wg0`, which prints the private key unlike `wg show`:\n```\n[Interface]\nListenPort = 41194\nFwMark = 0xca6c\nPrivateKey = %s\n```\nSwitch the script to `wg show wg0 dump | cut -f2-` or drop the interface section." % b64(32),
    ["secret"])
add("wireguard", "ko", "pii", "ConfigMap 에 들어간 wg0.conf",
    "사이드카용 wg0.conf 를 Secret 이 아니라 ConfigMap 으로 만들어서 `kubectl get cm wg-conf -o yaml` 로 누구나 봅니다:\n```yaml\ndata:\n  wg0.conf: |\n    [Interface]\n    PrivateKey = %s\n    Address = 10.13.13.2/32\n```\nSecret 으로 옮기고 RBAC 에서 configmaps get 권한을 줄였습니다." % b64(32),
    ["secret"])
add("wireguard", "en", "good", "Peer section with only the public key",
    "A road-warrior client needs the server's public key only: `[Peer]` with `PublicKey = %s`, `Endpoint = vpn.harbourline.io:51820`, `AllowedIPs = 0.0.0.0/0` and `PersistentKeepalive = 25` behind NAT. `wg show wg0 latest-handshakes` printing 0 means the keys do not pair." % b64(32))
add("wireguard", "ko", "good", "공개키만 있는 피어 목록",
    "서버의 피어 목록 `wg show wg0 peers` 는 공개키만 출력합니다. 예를 들어 `PublicKey = %s` 인 피어의 AllowedIPs 가 다른 피어와 겹치면 나중에 추가한 쪽만 트래픽을 받으니, `wg show wg0 allowed-ips` 로 겹침을 확인했습니다." % b64(32))
add("wireguard", "en", "placeholder", "wg-quick template keeps the key out of the file",
    "Our template has `PrivateKey = <server-private-key>` and the playbook fills it from Vault; better, drop the line and use `PostUp = wg set %i private-key /etc/wireguard/%i.key` so the key file stays `chmod 600` and never lands in the rendered config.")

# 8. Sentry DSN.
add("sentry", "en", "pii", "Legacy Sentry DSN with its secret in settings.py",
    "The Django settings still use the legacy DSN form with the secret key:\n```python\nSENTRY_DSN = \"https://%s:%s@o123456.ingest.sentry.io/5512345\"\n```\nThe secret part lets anyone call the store API as the project; remove it (sentry-sdk 1.x needs only the public key) and rotate the key in Project Settings > Client Keys." % (hexs(32), hexs(32)),
    ["secret"])
add("sentry", "ko", "pii", "자체 호스팅 Sentry DSN 에 시크릿 키",
    "사내 Sentry 9.1 을 쓰는 배치 서버 설정 `dsn: https://%s:%s@sentry.corp-infra.kr/7` 에 시크릿 키까지 들어 있습니다. 9.x 는 시크릿 키로 API 호출이 되니 Client Keys 에서 키를 새로 만들고 공개키만 있는 DSN 으로 바꿨습니다." % (hexs(32), hexs(32)),
    ["secret"])
add("sentry", "en", "pii", "raven-js config with the private DSN",
    "The old Angular bundle calls `Raven.config('https://%s:%s@app.getsentry.com/48211').install()`; the bundle is public, so the secret key is too. raven-js 3.27 accepts the public DSN; rotate this key." % (hexs(32), hexs(32)),
    ["secret"])
add("sentry", "en", "good", "Browser bundle ships the public DSN",
    "The web client initialises with `Sentry.init({ dsn: \"https://%s@o4504018231.ingest.us.sentry.io/4506612301\", tracesSampleRate: 0.1 })`. The DSN holds only the public key, which Sentry documents as safe to ship in clients; abuse is limited with the project's rate limit and Allowed Domains, not by hiding it." % hexs(32))
add("sentry", "ko", "good", "모바일 앱의 공개 DSN",
    "React Native 앱의 `Sentry.init({ dsn: 'https://%s@o4505187171.ingest.sentry.io/4505520100' })` 는 공개키만 있는 DSN 이라 앱 번들에 들어가도 됩니다. 스팸 이벤트는 프로젝트 설정의 Rate Limits 와 Inbound Filters 로 막고, sentry-cli 의 auth token 만 CI 시크릿으로 둡니다." % hexs(32))
add("sentry", "en", "placeholder", "Sentry's old documentation DSN",
    "Sentry's old docs write the legacy form as `https://public:secret@sentry.example.com/1`; the SDK parses scheme, public key, secret key, host and project id from it, and sentry-python 2.x logs `DeprecationWarning` when the secret part is present.")
add("sentry", "ko", "placeholder", "문서의 DSN 예시",
    "Sentry 문서는 `dsn: \"https://examplePublicKey@o0.ingest.sentry.io/0\"` 를 예시로 씁니다. @ 앞이 공개키, o0 은 조직 ingest 호스트, 마지막 숫자가 프로젝트 id 이고, `SENTRY_DSN` 환경변수가 있으면 `Sentry.init()` 이 인자 없이도 읽습니다.")


def main(out):
    with open(out, "w", encoding="utf-8") as f:
        for c in CASES:
            f.write(json.dumps(c, ensure_ascii=False) + "\n")
    ko = sum(1 for c in CASES if c["lang"] == "ko")
    print(len(CASES), "cases,", ko, "Korean", file=sys.stderr)


main(sys.argv[1] if len(sys.argv) > 1 else "../own15.jsonl")
