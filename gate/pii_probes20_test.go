package gate

import (
	"slices"
	"testing"
)

// TestPIIProbes20 pins carriers written as probes in session 20, none from
// testdata/gate: other countries' identity numbers (the UAE's, Viet Nam's,
// the Philippines', Argentina's dotted DNI, Denmark's CPR without its
// dash, Malaysia's IC number, Aadhaar as a field stores it, Germany's KVNR,
// Serbia's JMBG, Bulgaria's EGN, Russia's SNILS, Iceland's kennitala, New
// Zealand's IRD, Pakistan's CNIC, Egypt's national number, Saudi iqama,
// Nigeria's BVN, Peru's DNI and Colombia's cédula), a Spanish DNI
// the title names, secrets in PHP's define() and Redis's directives, a
// person's coordinates in an event and a passport beside a reservation's
// name, a customer's address in an error string (a Dr, a capital Rue) and a
// Japanese date of birth. Each refusal fails on the rules before this session; each
// look-alike beside them passes.
func TestPIIProbes20(t *testing.T) {
	for _, c := range []struct {
		title, content, want string // want "" passes
	}{
		{"El DNI con letra minúscula rompe la validación", "El formulario de alta de Javier Morales envía `48291736q`; el backend compara la letra en mayúsculas y lo rechaza. Normaliza con upper() antes de validar.", PIINationalID},
		{"Emirates ID with dashes fails the UAE PASS lookup", "Customer Fatima Al Mansoori's Emirates ID 784-1987-2846193-4 fails the lookup when sent with dashes; strip them.", PIINationalID},
		{"CPR-nummer i loggen", "Borger-login logger `cpr=1204851237 navn=Mette Hansen` ved fejl; fjern feltet fra loggen.", PIINationalID},
		{"Aadhaar in the eKYC retry log", "eKYC retry log: `aadhaar=483927160523 name=Priya Sharma status=OTP_TIMEOUT`. Mask all but the last four digits before logging.", PIINationalID},
		{"DNI argentino en el log", "El log de la app muestra `dni=30.482.915 nombre=Martina Gómez` al fallar el alta; quitar el DNI del log.", PIINationalID},
		{"MyKad number in the form", "Customer Nur Aisyah's IC number 850712-14-5238 is rejected by the bank API because of the dashes.", PIINationalID},
		{"CCCD trong log", "Log eKYC: `cccd=001085012345 ho_ten=Nguyen Van An` — cần che số CCCD.", PIINationalID},
		{"SSS number in payroll", "Payroll for Maria Santos fails: SSS number 34-2817465-9 has an extra dash.", PIINationalID},
		{"wp-config DB password", "wp-config.php `define( 'DB_PASSWORD', 'rT8#qLm2vX9z' );` is world-readable after the unzip; chmod 640.", PIIPassword},
		{"requirepass", "redis.conf `requirepass Jx8mV2qL7kTz` is readable by every user on the host; CONFIG GET requirepass also returns it.", PIIPassword},
		{"User location in analytics", "analytics event `{\"user\":\"u_88213\",\"name\":\"Ethan Clark\",\"lat\":40.741895,\"lng\":-73.989308,\"ts\":1707650000}` is sent before consent.", PIILocation},
		{"Passport number in booking log", "booking API log: `pax=OKAFOR/CHIDI MR passport=533821976 nat=GBR dob=12MAR84` — the airline's GDS echoes it back.", PIINationalID},
		{"Customer address in the geocoder error", "Geocoder error for customer Megan Turner: `cannot resolve 1847 Maple Ridge Dr, Columbus, OH 43215` — log the order id instead.", PIIAddress},
		{"Shipping address in error", "ShippingError: cannot geocode '42 Rue de la Paix, 75002 Paris' for customer Élodie Martin — log the order id, not the address.", PIIAddress},
		{"生年月日", "会員登録ログ `氏名=鈴木一郎 生年月日=1985年4月12日` が残っている。", PIIBirthDate},
		{"Krankenversicherungsnummer", "Die eGK-Abfrage für Lena Fischer mit KVNR K274918367 schlägt fehl.", PIINationalID},
		{"JMBG u izvozu", "Izvoz korisnika sadrži `JMBG 1507985710016, Marko Petrović` u CSV-u.", PIINationalID},
		{"ЕГН в лога", "Логът на регистрацията съдържа `egn=8503124815 name=Georgi Ivanov`.", PIINationalID},
		{"СНИЛС в логе", "В логе Госуслуг: `snils=112-233-445 95 fio=Иванов Пётр` — маскировать.", PIINationalID},
		{"Kennitala in CRM", "CRM contact Jón Jónsson has kennitala 120485-3939; the import strips the dash.", PIINationalID},
		{"IRD number in the payroll file", "Payday filing for Ngaio Walker rejects IRD number 129-187-239.", PIINationalID},
		{"CNIC in signup", "NADRA verification for Ayesha Khan fails when CNIC 35202-4817263-5 is sent with dashes.", PIINationalID},
		{"الرقم القومي", "Customer Ahmed Hassan's national ID 28503121401234 fails the Fawry KYC check because of Arabic digits.", PIINationalID},
		{"Iqama in HR", "HR system stores iqama number 2384716508 for employee Imran Ali in plain text.", PIINationalID},
		{"BVN in the loan log", "Loan API log: `bvn=22184736512 name=Chinedu Okeke` — BVN must be masked.", PIINationalID},
		{"DNI peruano en RENIEC", "La consulta RENIEC para Lucía Quispe con DNI 47281936 devuelve 404.", PIINationalID},
		{"Cédula en el log", "Log de pagos: `cedula=1020487361 nombre=Valentina Ríos` en texto plano.", PIINationalID},
		// Look-alikes: no word for the number, a documented or placeholder
		// value, a place that is no one's.
		{"Bucket owner", "The AWS account 483927160523 owns the bucket; its KMS key lives in another account.", ""},
		{"Ticket ids", "Zendesk ticket 34-2817465-9 was merged into 12-3456789-0.", ""},
		{"redis auth", "Set requirepass in redis.conf (the sample uses requirepass foobared) and restart; clients then need AUTH.", ""},
		{"wp-config sample", "wp-config-sample.php ships `define( 'DB_PASSWORD', 'password_here' );` — copy it to wp-config.php first.", ""},
		{"KVNR check", "KVNR K274918368 fails the check digit, as the validator should report.", ""},
		{"HQ", "Our office is at 1 Infinite Way, Cupertino; the VPN endpoint is vpn.acme.io.", ""},
		{"Iqama renewals", "The iqama renewal job processed 2384716508 bytes of scans in 41 minutes.", ""},
		{"DNI format", "A Peruvian DNI has 8 digits, e.g. 12345678, and no check digit.", ""},
		{"Build ids", "CI build 1507985710016 published the image; Saudi region me-central-1 pulled it.", ""},
		{"Store locator", "The locator returns `{\"store\":\"Gangnam\",\"lat\":37.497942,\"lng\":127.027621}` for the nearest branch.", ""},
	} {
		got := DetectPII(c.title + "\n" + c.content)
		if c.want == "" && len(got) != 0 || c.want != "" && !slices.Contains(got, c.want) {
			t.Errorf("DetectPII(%q) = %v, want %q", c.title, got, c.want)
		}
	}
}
