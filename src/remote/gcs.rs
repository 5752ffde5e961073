//! Google Cloud Storage: `gs://bucket/object` read through the JSON API's media
//! download (`/storage/v1/b/BUCKET/o/OBJECT?alt=media`, which honours `Range`), from
//! `https://storage.googleapis.com` or the emulator `STORAGE_EMULATOR_HOST` names (the
//! variable Google's own client libraries read). A bearer token, when one is set
//! (`GOOGLE_OAUTH_ACCESS_TOKEN` or `CLOUDSDK_AUTH_ACCESS_TOKEN`: what `gcloud auth
//! print-access-token` prints), authorizes the GETs; without one they go unsigned (a
//! public bucket, an emulator). Service-account keys would need RSA signing: not here
//! (the token is what a service account's metadata server or `gcloud` hands out).

use std::format;
use std::string::{String, ToString};

/// An object: the URL of its bytes, and the token sent with each GET.
#[derive(Clone)]
pub(super) struct Object {
    pub(super) url: String,
    pub(super) token: Option<String>,
}

impl core::fmt::Debug for Object {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        // The token never reaches a log.
        f.debug_struct("Object")
            .field("url", &self.url)
            .finish_non_exhaustive()
    }
}

fn env(names: &[&str]) -> Option<String> {
    names
        .iter()
        .find_map(|name| std::env::var(name).ok().filter(|v| !v.is_empty()))
}

/// The object `bucket_object` (`bucket/object`, the object's name may hold `/`) names.
pub(super) fn object(bucket_object: &str) -> Result<Object, String> {
    let endpoint = env(&["STORAGE_EMULATOR_HOST"]);
    let token = env(&["GOOGLE_OAUTH_ACCESS_TOKEN", "CLOUDSDK_AUTH_ACCESS_TOKEN"]);
    object_at(bucket_object, endpoint.as_deref(), token)
}

/// [`object`] with its endpoint (`host:port` or a URL; Google's when none) and token.
fn object_at(
    bucket_object: &str,
    endpoint: Option<&str>,
    token: Option<String>,
) -> Result<Object, String> {
    let (bucket, name) = bucket_object
        .split_once('/')
        .filter(|(b, o)| !b.is_empty() && !o.is_empty())
        .ok_or("expected gs://BUCKET/OBJECT")?;
    let endpoint = match endpoint {
        None => "https://storage.googleapis.com".to_string(),
        Some(e) if e.contains("://") => e.trim_end_matches('/').to_string(),
        Some(e) => format!("http://{}", e.trim_end_matches('/')),
    };
    let url = format!(
        "{endpoint}/storage/v1/b/{}/o/{}?alt=media",
        encode(bucket),
        encode(name)
    );
    Ok(Object { url, token })
}

/// `s` as one path segment: every byte but the unreserved ones escaped, `/` too (the
/// object's name is one segment of the JSON API's path).
fn encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        match b.is_ascii_alphanumeric() || b"-_.~".contains(&b) {
            true => out.push(b as char),
            false => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn objects_are_fetched_from_the_json_apis_media_download() {
        for (given, endpoint, url) in [
            (
                "b/a.b2nd",
                None,
                "https://storage.googleapis.com/storage/v1/b/b/o/a.b2nd?alt=media",
            ),
            (
                "b/run 1/a.b2nd",
                Some("127.0.0.1:9023"),
                "http://127.0.0.1:9023/storage/v1/b/b/o/run%201%2Fa.b2nd?alt=media",
            ),
            (
                "b/x",
                Some("https://gcs.local/"),
                "https://gcs.local/storage/v1/b/b/o/x?alt=media",
            ),
        ] {
            assert_eq!(
                object_at(given, endpoint, None).unwrap().url,
                url,
                "{given}"
            );
        }
        for bad in ["b", "b/", "/a"] {
            assert!(object_at(bad, None, None).is_err(), "{bad}");
        }
        let with = object_at("b/x", None, Some("secret".into())).unwrap();
        assert!(!format!("{with:?}").contains("secret"));
    }
}
