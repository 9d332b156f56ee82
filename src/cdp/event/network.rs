//! The params of the `Network` events that feed the network journal (SPEC §4 `network`).

use serde::Deserialize;

/// `Network.requestWillBeSent`.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct RequestWillBeSent {
    /// The request (kept by each hop of a redirect).
    pub request_id: String,
    /// `Network.MonotonicTime`, s.
    #[serde(default)]
    pub timestamp: Option<f64>,
    /// `Document`, `Fetch`, `XHR`, `Script`, …
    #[serde(default, rename = "type")]
    pub kind: Option<String>,
    /// What is asked for.
    #[serde(default)]
    pub request: Request,
    /// For a redirect: the response that ended the previous hop.
    #[serde(default)]
    pub redirect_response: Option<Response>,
}

/// A `Network.Request`.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
#[serde(default)]
pub struct Request {
    /// `GET`, `POST`, …
    pub method: Option<String>,
    /// The URL.
    pub url: Option<String>,
}

/// A `Network.Response`.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
#[serde(default)]
pub struct Response {
    /// The HTTP status.
    pub status: Option<u64>,
}

/// `Network.responseReceived`.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct ResponseReceived {
    /// The request.
    pub request_id: String,
    /// The resource type.
    #[serde(default, rename = "type")]
    pub kind: Option<String>,
    /// The response.
    #[serde(default)]
    pub response: Option<Response>,
}

/// `Network.loadingFinished`.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct LoadingFinished {
    /// The request.
    pub request_id: String,
    /// `Network.MonotonicTime`, s.
    #[serde(default)]
    pub timestamp: Option<f64>,
    /// Bytes received over the network.
    #[serde(default)]
    pub encoded_data_length: Option<f64>,
}

/// `Network.loadingFailed`.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct LoadingFailed {
    /// The request.
    pub request_id: String,
    /// `Network.MonotonicTime`, s.
    #[serde(default)]
    pub timestamp: Option<f64>,
    /// The resource type.
    #[serde(default, rename = "type")]
    pub kind: Option<String>,
    /// Chromium's net error (`net::ERR_CONNECTION_REFUSED`).
    #[serde(default)]
    pub error_text: Option<String>,
}
