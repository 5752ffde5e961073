//! S3: where `s3://bucket/key` is fetched from (`AWS_ENDPOINT_URL`, or AWS itself), and
//! the SigV4 signature of each GET (AWS's "Authenticating Requests: Using the
//! Authorization Header"), written here: an HMAC-SHA256 chain, no SDK.

use std::format;
use std::string::{String, ToString};
use std::vec::Vec;

use hmac::{Hmac, Mac};
use sha2::{Digest, Sha256};

/// SHA-256 of the empty payload (a GET's body), as `x-amz-content-sha256` says it.
const EMPTY_SHA256: &str = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

/// The credentials and region requests are signed with.
#[derive(Clone)]
pub(super) struct Credentials {
    pub(super) key_id: String,
    pub(super) secret: String,
    pub(super) token: Option<String>,
    pub(super) region: String,
}

impl core::fmt::Debug for Credentials {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        // The secret never reaches a log.
        f.debug_struct("Credentials")
            .field("key_id", &self.key_id)
            .field("region", &self.region)
            .finish_non_exhaustive()
    }
}

/// An object of a bucket: the `https://` URL it is read from, and the credentials
/// (none: unsigned requests, as for a public bucket).
#[derive(Debug, Clone)]
pub(super) struct Object {
    pub(super) url: String,
    pub(super) host: String,
    pub(super) path: String,
    pub(super) credentials: Option<Credentials>,
}

fn env(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.is_empty())
}

/// `s3://bucket/key` resolved from the environment: `AWS_ENDPOINT_URL_S3` or
/// `AWS_ENDPOINT_URL` (path-style, as S3-compatible servers take it) or
/// `https://bucket.s3.REGION.amazonaws.com`; `AWS_REGION` or `AWS_DEFAULT_REGION`
/// (us-east-1); `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`, `AWS_SESSION_TOKEN`.
pub(super) fn object(bucket_key: &str) -> Result<Object, String> {
    let (bucket, key) = bucket_key
        .split_once('/')
        .filter(|(b, k)| !b.is_empty() && !k.is_empty())
        .ok_or("expected s3://BUCKET/KEY")?;
    let region = env("AWS_REGION")
        .or_else(|| env("AWS_DEFAULT_REGION"))
        .unwrap_or_else(|| "us-east-1".into());
    let key = encode_path(key);
    let (scheme_host, path) = match env("AWS_ENDPOINT_URL_S3").or_else(|| env("AWS_ENDPOINT_URL")) {
        Some(endpoint) => {
            let endpoint = endpoint.trim_end_matches('/').to_string();
            let path = format!("/{}/{key}", encode_path(bucket));
            (endpoint, path)
        }
        None => (
            format!("https://{bucket}.s3.{region}.amazonaws.com"),
            format!("/{key}"),
        ),
    };
    let host = scheme_host
        .split_once("://")
        .map_or(scheme_host.as_str(), |(_, h)| h)
        .to_string();
    let credentials = match (env("AWS_ACCESS_KEY_ID"), env("AWS_SECRET_ACCESS_KEY")) {
        (Some(key_id), Some(secret)) => Some(Credentials {
            key_id,
            secret,
            token: env("AWS_SESSION_TOKEN"),
            region,
        }),
        _ => None,
    };
    Ok(Object {
        url: format!("{scheme_host}{path}"),
        host,
        path,
        credentials,
    })
}

/// S3's URI encoding of a key: every byte but the unreserved ones and `/` as `%XX`.
pub(super) fn encode_path(key: &str) -> String {
    let mut out = String::with_capacity(key.len());
    for b in key.bytes() {
        if b.is_ascii_alphanumeric() || b"-_.~/".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn hmac(key: &[u8], data: &str) -> Vec<u8> {
    // HMAC takes keys of any length: new_from_slice cannot fail.
    let mut mac = <Hmac<Sha256> as Mac>::new_from_slice(key).expect("HMAC takes any key length");
    mac.update(data.as_bytes());
    mac.finalize().into_bytes().to_vec()
}

/// The headers of a signed GET of `path` on `host` with `range` at `amz_date`
/// (`YYYYMMDDTHHMMSSZ`): `x-amz-date`, `x-amz-content-sha256`, the session token when
/// there is one, and `Authorization`.
pub(super) fn sign(
    creds: &Credentials,
    host: &str,
    path: &str,
    range: &str,
    amz_date: &str,
) -> Vec<(&'static str, String)> {
    let date = amz_date.get(..8).unwrap_or_default();
    let mut headers: Vec<(&'static str, String)> = Vec::from([
        ("host", host.to_string()),
        ("range", range.to_string()),
        ("x-amz-content-sha256", EMPTY_SHA256.to_string()),
        ("x-amz-date", amz_date.to_string()),
    ]);
    if let Some(token) = &creds.token {
        headers.push(("x-amz-security-token", token.clone()));
    }
    let canonical_headers: String = headers.iter().map(|(k, v)| format!("{k}:{v}\n")).collect();
    let signed: Vec<&str> = headers.iter().map(|(k, _)| *k).collect();
    let signed = signed.join(";");
    let request = format!("GET\n{path}\n\n{canonical_headers}\n{signed}\n{EMPTY_SHA256}");
    let scope = format!("{date}/{}/s3/aws4_request", creds.region);
    let to_sign = format!(
        "AWS4-HMAC-SHA256\n{amz_date}\n{scope}\n{}",
        hex(&Sha256::digest(request.as_bytes()))
    );
    let mut key = hmac(format!("AWS4{}", creds.secret).as_bytes(), date);
    for part in [creds.region.as_str(), "s3", "aws4_request"] {
        key = hmac(&key, part);
    }
    let signature = hex(&hmac(&key, &to_sign));
    let authorization = format!(
        "AWS4-HMAC-SHA256 Credential={}/{scope},SignedHeaders={signed},Signature={signature}",
        creds.key_id
    );
    headers.retain(|(k, _)| *k != "host" && *k != "range");
    headers.push(("authorization", authorization));
    headers
}

/// Now as SigV4 writes it, `YYYYMMDDTHHMMSSZ` (UTC).
pub(super) fn amz_now() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (days, rem) = (secs / 86_400, secs % 86_400);
    // Howard Hinnant's civil_from_days: the proleptic Gregorian date of a day count.
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}{month:02}{day:02}T{:02}{:02}{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// AWS's own example of a signed GET with a Range header ("Example: GET Object",
    /// S3 API reference, sig-v4-header-based-auth): its expected signature.
    #[test]
    fn the_signature_of_aws_documented_get_object_example() {
        let creds = Credentials {
            key_id: "AKIAIOSFODNN7EXAMPLE".into(),
            secret: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY".into(),
            token: None,
            region: "us-east-1".into(),
        };
        let headers = sign(
            &creds,
            "examplebucket.s3.amazonaws.com",
            "/test.txt",
            "bytes=0-9",
            "20130524T000000Z",
        );
        let auth = &headers
            .iter()
            .find(|(k, _)| *k == "authorization")
            .unwrap()
            .1;
        assert_eq!(
            auth,
            "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request,\
             SignedHeaders=host;range;x-amz-content-sha256;x-amz-date,\
             Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41"
        );
    }

    #[test]
    fn keys_are_encoded_as_s3_encodes_them() {
        assert_eq!(encode_path("a b/c+d~.b2nd"), "a%20b/c%2Bd~.b2nd");
        assert!(object("bucket").is_err());
        assert_eq!(amz_now().len(), 16);
    }
}
