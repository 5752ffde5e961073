//! Azure Blob Storage: where `az://container/blob` is fetched from
//! (`AZURE_STORAGE_ENDPOINT`, or the account's `https://ACCOUNT.blob.core.windows.net`),
//! and the Shared Key signature of each GET (Azure's "Authorize with Shared Key": an
//! HMAC-SHA256 of the string to sign with the account key), written here: no SDK.

use std::format;
use std::string::{String, ToString};
use std::vec::Vec;

use hmac::{Hmac, Mac};
use sha2::Sha256;

/// The service version the requests are made in.
const VERSION: &str = "2021-08-06";

/// An account's name and key (decoded from base64).
#[derive(Clone)]
pub(super) struct Account {
    pub(super) name: String,
    key: Vec<u8>,
}

impl core::fmt::Debug for Account {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        // The key never reaches a log.
        f.debug_struct("Account")
            .field("name", &self.name)
            .finish_non_exhaustive()
    }
}

/// A blob: its URL, its URL's path (what the signature covers) and the account that
/// signs, when a key is set (else the GETs go unsigned: a public container).
#[derive(Debug, Clone)]
pub(super) struct Blob {
    pub(super) url: String,
    path: String,
    account: Option<Account>,
}

fn env(names: &[&str]) -> Option<String> {
    names
        .iter()
        .find_map(|name| std::env::var(name).ok().filter(|v| !v.is_empty()))
}

/// The blob `container_blob` (`container/blob`) names: the account from
/// `AZURE_STORAGE_ACCOUNT` (or `AZURE_STORAGE_ACCOUNT_NAME`), its key from
/// `AZURE_STORAGE_KEY` (or `AZURE_STORAGE_ACCOUNT_KEY`), the endpoint from
/// `AZURE_STORAGE_ENDPOINT` (Azurite's `http://127.0.0.1:10000/devstoreaccount1`).
pub(super) fn blob(container_blob: &str) -> Result<Blob, String> {
    let (container, name) = container_blob
        .split_once('/')
        .filter(|(c, b)| !c.is_empty() && !b.is_empty())
        .ok_or("expected az://CONTAINER/BLOB")?;
    let account = env(&["AZURE_STORAGE_ACCOUNT", "AZURE_STORAGE_ACCOUNT_NAME"]);
    let endpoint = match (env(&["AZURE_STORAGE_ENDPOINT"]), &account) {
        (Some(endpoint), _) => endpoint.trim_end_matches('/').to_string(),
        (None, Some(account)) => format!("https://{account}.blob.core.windows.net"),
        (None, None) => {
            return Err("az:// needs AZURE_STORAGE_ACCOUNT or AZURE_STORAGE_ENDPOINT".into())
        }
    };
    let key = env(&["AZURE_STORAGE_KEY", "AZURE_STORAGE_ACCOUNT_KEY"]);
    let account = match (account, key) {
        (Some(name), Some(key)) => Some(Account {
            name,
            key: base64_decode(&key).ok_or("AZURE_STORAGE_KEY is not base64")?,
        }),
        _ => None,
    };
    let url = format!(
        "{endpoint}/{}/{}",
        super::s3::encode_path(container),
        super::s3::encode_path(name)
    );
    let path = url
        .split_once("://")
        .and_then(|(_, rest)| rest.find('/').map(|at| rest[at..].to_string()))
        .unwrap_or_default();
    Ok(Blob { url, path, account })
}

/// The headers of a GET of `range` of `blob` made at `date` (RFC 1123, GMT), its
/// `Authorization` among them when it is signed.
pub(super) fn sign(blob: &Blob, range: &str, date: &str) -> Vec<(&'static str, String)> {
    let mut headers = Vec::from([
        ("x-ms-date", date.to_string()),
        ("x-ms-version", VERSION.to_string()),
    ]);
    if let Some(account) = &blob.account {
        // VERB, then Content-Encoding, -Language, -Length, -MD5, -Type, Date,
        // If-Modified-Since, If-Match, If-None-Match, If-Unmodified-Since (all empty),
        // Range, the x-ms- headers in order, the resource.
        let to_sign = format!(
            "GET\n\n\n\n\n\n\n\n\n\n\n{range}\nx-ms-date:{date}\nx-ms-version:{VERSION}\n/{}{}",
            account.name, blob.path
        );
        let signature = base64_encode(&hmac(&account.key, &to_sign));
        headers.push((
            "authorization",
            format!("SharedKey {}:{signature}", account.name),
        ));
    }
    headers
}

fn hmac(key: &[u8], data: &str) -> Vec<u8> {
    // HMAC takes keys of any length: the error branch is never taken.
    match <Hmac<Sha256> as Mac>::new_from_slice(key) {
        Ok(mut mac) => {
            mac.update(data.as_bytes());
            mac.finalize().into_bytes().to_vec()
        }
        Err(_) => Vec::new(),
    }
}

/// Now as HTTP dates are written: `Wed, 02 Dec 2026 17:10:00 GMT`.
pub(super) fn http_date() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    http_date_of(secs)
}

fn http_date_of(secs: u64) -> String {
    const DAYS: [&str; 7] = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"];
    const MONTHS: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    let days = secs / 86_400;
    let rem = secs % 86_400;
    // Howard Hinnant's civil_from_days.
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{}, {day:02} {} {year:04} {:02}:{:02}:{:02} GMT",
        DAYS[(days % 7) as usize],
        MONTHS[(month - 1).clamp(0, 11) as usize],
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

fn base64_encode(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for group in bytes.chunks(3) {
        let n = group
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, b)| n | u32::from(*b) << (16 - 8 * i));
        for i in 0..4 {
            if i <= group.len() {
                out.push(ALPHABET[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

fn base64_decode(text: &str) -> Option<Vec<u8>> {
    let text = text.trim().trim_end_matches('=');
    let mut out = Vec::with_capacity(text.len() * 3 / 4);
    let (mut n, mut bits) = (0u32, 0);
    for c in text.bytes() {
        let v = ALPHABET.iter().position(|&a| a == c)? as u32;
        n = n << 6 | v;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((n >> bits) as u8);
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_as_rfc_4648_writes_it() {
        for (bytes, text) in [
            (&b""[..], ""),
            (b"f", "Zg=="),
            (b"fo", "Zm8="),
            (b"foo", "Zm9v"),
            (b"foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(base64_encode(bytes), text);
            assert_eq!(base64_decode(text).as_deref(), Some(bytes));
        }
        assert_eq!(base64_decode("Zm9v!"), None);
    }

    #[test]
    fn dates_as_http_writes_them() {
        assert_eq!(http_date_of(0), "Thu, 01 Jan 1970 00:00:00 GMT");
        // Python's email.utils.formatdate(t, usegmt=True).
        assert_eq!(http_date_of(1_796_231_400), "Wed, 02 Dec 2026 17:10:00 GMT");
        assert_eq!(http_date_of(951_868_799), "Tue, 29 Feb 2000 23:59:59 GMT");
        assert!(blob("container").is_err());
    }
}
