//! Origin rules of SPEC §2 and Chrome extension ids.
//!
//! WebSockets are not bound by CORS, so any web page could open `ws://127.0.0.1:9225`. The bridge
//! therefore classifies every upgrade by its `Origin` header *before* the handshake: native programs
//! send none (client role only), the extension sends `chrome-extension://<id>` (extension role only),
//! and everything else is refused with HTTP 403. Values are compared after parsing, never by prefix.

use base64::Engine;
use sha2::{Digest, Sha256};

/// What an upgrade's `Origin` header allows (SPEC §2).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OriginClass {
    /// No `Origin` header: a native program; may only say `hello` with role `client`.
    Native,
    /// `Origin: chrome-extension://<id>`: may only say `hello` with role `extension`.
    Extension(String),
}

impl OriginClass {
    /// Human-readable name used in reject messages and logs.
    pub fn describe(&self) -> String {
        match self {
            OriginClass::Native => "no Origin (native program)".to_string(),
            OriginClass::Extension(id) => format!("chrome-extension://{id}"),
        }
    }
}

/// Whether `id` has the shape of a Chrome extension id: 32 characters `a`..=`p`.
pub fn is_extension_id(id: &str) -> bool {
    id.len() == 32 && id.bytes().all(|b| (b'a'..=b'p').contains(&b))
}

/// Classifies an upgrade by its `Origin` header values (all of them, in order; SPEC §2).
///
/// * no value → [`OriginClass::Native`];
/// * exactly one value that parses as `chrome-extension://<id>` (no port, credentials, path, query or
///   fragment; `<id>` a valid extension id, equal to `pinned` when given) → [`OriginClass::Extension`];
/// * anything else (`http(s)://…`, `null`, `file://`, look-alikes, several Origin headers, a bad
///   extension id, another extension when pinned) → `Err(reason)`, to be answered with HTTP 403.
pub fn classify_origin(values: &[&[u8]], pinned: Option<&str>) -> Result<OriginClass, String> {
    let raw = match values {
        [] => return Ok(OriginClass::Native),
        [one] => *one,
        _ => return Err("more than one Origin header".to_string()),
    };
    let text = std::str::from_utf8(raw).map_err(|_| "Origin header is not UTF-8".to_string())?;
    let text = text.trim();
    if text.eq_ignore_ascii_case("null") {
        return Err("Origin `null` is not allowed".to_string());
    }
    let url = url::Url::parse(text).map_err(|e| format!("Origin {text:?} does not parse: {e}"))?;
    if url.scheme() != "chrome-extension" {
        return Err(format!(
            "Origin scheme `{}` is not allowed (only chrome-extension://<id> or no Origin)",
            url.scheme()
        ));
    }
    let id = url.host_str().unwrap_or_default();
    if !is_extension_id(id) {
        return Err(format!(
            "Origin {text:?} does not carry a valid extension id"
        ));
    }
    if url.port().is_some()
        || !url.username().is_empty()
        || url.password().is_some()
        || !(url.path().is_empty() || url.path() == "/")
        || url.query().is_some()
        || url.fragment().is_some()
    {
        return Err(format!("Origin {text:?} is not a bare extension origin"));
    }
    if let Some(pinned) = pinned {
        if id != pinned {
            return Err(format!(
                "extension {id} is not the pinned extension {pinned} (see --extension-id)"
            ));
        }
    }
    Ok(OriginClass::Extension(id.to_string()))
}

/// Computes the extension id Chrome derives from a manifest `key` (base64 of the DER public key):
/// SHA-256 of the decoded key, the first 32 hex digits, each digit `0..f` mapped to `a..p`.
///
/// Errors with a message when `key` is not valid base64.
pub fn extension_id_from_key(key: &str) -> Result<String, String> {
    let compact: String = key.chars().filter(|c| !c.is_whitespace()).collect();
    let der = base64::engine::general_purpose::STANDARD
        .decode(compact.as_bytes())
        .map_err(|e| format!("manifest key is not base64: {e}"))?;
    let digest = Sha256::digest(&der);
    let id = digest[..16]
        .iter()
        .flat_map(|b| [b >> 4, b & 0x0f])
        .map(|nibble| char::from(b'a' + nibble))
        .collect();
    Ok(id)
}

#[cfg(test)]
mod tests {
    use super::*;

    const ID: &str = "obbcebjpclnphmijagoggibdnbknjkao";

    fn classify(v: &str, pinned: Option<&str>) -> Result<OriginClass, String> {
        classify_origin(&[v.as_bytes()], pinned)
    }

    #[test]
    fn no_origin_is_native() {
        assert_eq!(classify_origin(&[], None), Ok(OriginClass::Native));
        assert_eq!(classify_origin(&[], Some(ID)), Ok(OriginClass::Native));
    }

    #[test]
    fn extension_origin_is_extension_with_its_id() {
        let want = Ok(OriginClass::Extension(ID.to_string()));
        assert_eq!(classify(&format!("chrome-extension://{ID}"), None), want);
        assert_eq!(
            classify(&format!("chrome-extension://{ID}/"), Some(ID)),
            want
        );
    }

    #[test]
    fn web_and_special_origins_are_refused() {
        for bad in [
            "http://127.0.0.1:9225",
            "http://127.0.0.1:8080",
            "https://example.com",
            "http://127.0.0.1.evil.example",
            "null",
            "NULL",
            "file://",
            "file:///etc/passwd",
            "",
            "chrome-extension://",
            "chrome-extension://not-an-id",
            "chrome-extension://OBBCEBJPCLNPHMIJAGOGGIBDNBKNJKAO",
            "chrome-extension://obbcebjpclnphmijagoggibdnbknjkaoo",
            "chrome-extension://obbcebjpclnphmijagoggibdnbknjkao.evil.example",
            "chrome-extension://obbcebjpclnphmijagoggibdnbknjkao:80",
            "chrome-extension://user@obbcebjpclnphmijagoggibdnbknjkao",
            "chrome-extension://obbcebjpclnphmijagoggibdnbknjkao/page.html",
            "moz-extension://obbcebjpclnphmijagoggibdnbknjkao",
            "http://chrome-extension://obbcebjpclnphmijagoggibdnbknjkao",
        ] {
            assert!(classify(bad, None).is_err(), "{bad:?} must be refused");
        }
    }

    #[test]
    fn look_alike_extension_is_refused_when_pinned() {
        let other = "abcdefghijklmnopabcdefghijklmnop";
        assert_eq!(
            classify(&format!("chrome-extension://{other}"), None),
            Ok(OriginClass::Extension(other.to_string()))
        );
        let err = classify(&format!("chrome-extension://{other}"), Some(ID)).unwrap_err();
        assert!(err.contains("not the pinned extension"), "{err}");
    }

    #[test]
    fn several_origin_headers_are_refused() {
        let ext = format!("chrome-extension://{ID}");
        assert!(classify_origin(&[ext.as_bytes(), ext.as_bytes()], None).is_err());
    }

    #[test]
    fn non_utf8_origin_is_refused() {
        assert!(classify_origin(&[&[0xff, 0xfe]], None).is_err());
    }

    #[test]
    fn extension_id_from_the_repository_key() {
        // The fixed key of manifest.json gives the extension id the whole project relies on.
        let key = "MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAv1/i/Vr6UeqeP5nptO4Mmh4e/fHgCqJrlUS+afDIhcPz2uVyJeLJ8RiT0xj10VlsE/RTIS4H/Y6+6coYW29P4pBrabgLBrss7Tdd+KU9fOCL/c5QL+qwEQIJcygbNzpsGlp+s10Mvz5ktLDJnO8MD4Vl70OZ6J1qKg11bE7lCVneR1zDJIjwHk6ebE93hdg7cAEYwhjWknMAkZlIIQi84SLHbV3wpjhWgAhecV6EuK3/Hcb8QK/IzAua+UdEVQN5XuHJtvMYdjr1UIT87OLgXFVMNCbHXYqZCz8Ak3EWwfxSkfOlmdle6zsdEw3z6oUNGEMF66sFHsDMZTv45xyVFwIDAQAB";
        assert_eq!(extension_id_from_key(key).as_deref(), Ok(ID));
    }

    #[test]
    fn extension_id_rejects_bad_base64() {
        assert!(extension_id_from_key("not base64!!").is_err());
    }

    #[test]
    fn extension_id_shape() {
        assert!(is_extension_id(ID));
        assert!(!is_extension_id("obbcebjpclnphmijagoggibdnbknjkaq"));
        assert!(!is_extension_id("short"));
    }
}
