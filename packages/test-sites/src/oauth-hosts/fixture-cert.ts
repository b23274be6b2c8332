// A self-signed certificate for the provider fixtures' real host names, test only: its key is public on
// purpose. Chromium preloads HSTS for google.com and github.com, so it reaches them only over TLS; the
// browser trusts this one certificate by its key (BROWSER_TRUSTED_SPKI), nothing else changes.
export const FIXTURE_TLS_KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgXzgCAAJvPqfWaqFv
SRonUiusYN1bgMH/lLjWIUVExWyhRANCAATAKyHNTuyENdduSmqneWkERfmFet2t
8zM9KOFpX+hs8ruoMW2lTLvGMkGFnW+1p7zJn8TPoNFmNKDkVl3yEDfX
-----END PRIVATE KEY-----`;

export const FIXTURE_TLS_CERT = `-----BEGIN CERTIFICATE-----
MIIB1jCCAX2gAwIBAgIUWe4bYlSnqGVWg9NyYQUhSJPEchwwCgYIKoZIzj0EAwIw
KjEoMCYGA1UEAwwfT0F1dGggaG9zdCBmaXh0dXJlcyAodGVzdCBvbmx5KTAgFw0y
NjExMjUxNzU0NTFaGA8yMTI2MTEwMTE3NTQ1MVowKjEoMCYGA1UEAwwfT0F1dGgg
aG9zdCBmaXh0dXJlcyAodGVzdCBvbmx5KTBZMBMGByqGSM49AgEGCCqGSM49AwEH
A0IABMArIc1O7IQ1125Kaqd5aQRF+YV63a3zMz0o4Wlf6Gzyu6gxbaVMu8YyQYWd
b7WnvMmfxM+g0WY0oORWXfIQN9ejfzB9MB0GA1UdDgQWBBR1ogBdEWepEzAYY1TC
f1ThzxtuMjAfBgNVHSMEGDAWgBR1ogBdEWepEzAYY1TCf1ThzxtuMjAPBgNVHRMB
Af8EBTADAQH/MCoGA1UdEQQjMCGCE2FjY291bnRzLmdvb2dsZS5jb22CCmdpdGh1
Yi5jb20wCgYIKoZIzj0EAwIDRwAwRAIgXVsumMKKkq/tBaQQ3zsrNfo1qd07mXox
+idrfZeImq8CICwiO6LLGU3kXx6TZpwi1KcZ+Aniu2F4Y7FZqGYvW3yH
-----END CERTIFICATE-----`;
