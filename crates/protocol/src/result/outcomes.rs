//! What else an action caused, reported beside its result: dialogs answered, navigations, tabs
//! opened, downloads started.

use crate::action::TabId;
use crate::changes::Changes;
use crate::ExtractResult;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// How a reported dialog was answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum DialogAnswered {
    /// OK was pressed.
    Accepted,
    /// Cancel was pressed.
    Dismissed,
}

/// A JavaScript dialog that opened while an action ran, and how it was answered (SPEC §7):
/// `{type, message, answer, promptText?}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DialogReport {
    /// `alert`, `confirm`, `prompt` or `beforeunload`.
    pub r#type: String,
    /// The dialog's message.
    pub message: String,
    /// How it was answered.
    pub answer: DialogAnswered,
    /// The text an accepted `prompt` returned to the page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompt_text: Option<String>,
}

/// A JavaScript dialog open on a tab the user is using, left for the user (SPEC §7): `{type, message}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OpenDialog {
    /// `alert`, `confirm`, `prompt` or `beforeunload`.
    pub r#type: String,
    /// The dialog's message.
    pub message: String,
}

/// The page an action left the tab on when it changed the main frame's document: `{url, title}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Navigated {
    /// The new document's URL.
    pub url: String,
    /// Its title.
    pub title: String,
}

/// A tab or popup an action opened (it joins the agent's tabs): `{tabId, url}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OpenedTab {
    /// The new tab.
    pub tab_id: TabId,
    /// The URL it opened (or is loading).
    pub url: String,
}

/// A download an action started: `{id, filename, state}` (`downloads` gives the details).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DownloadRef {
    /// The `chrome.downloads` id.
    pub id: i64,
    /// The file's name (without its folder).
    pub filename: String,
    /// `in_progress`, `complete` or `interrupted`.
    pub state: String,
}

/// What an action caused besides its own result (SPEC §4 "Outcomes"), merged into every result
/// object; each key is absent when there is nothing to say.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Outcomes {
    /// The dialogs that opened while the action ran, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub dialogs: Vec<DialogReport>,
    /// The main frame's new document, when the action changed it (not for the navigations, whose
    /// result is that page).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub navigated: Option<Navigated>,
    /// The first tab or popup the action opened.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opened_tab: Option<OpenedTab>,
    /// The downloads the action started.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub downloads: Vec<DownloadRef>,
    /// What the action changed in the agent's view of the tab ([`Changes`]); `{}` when nothing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub changes: Option<Changes>,
    /// The tab's new view instead of `changes`: after a navigation, when the agent had no view of the
    /// tab yet, or when the change is too big to be worth a diff.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub view: Option<Box<ExtractResult>>,
}

impl Outcomes {
    /// Whether there is nothing to report.
    pub fn is_empty(&self) -> bool {
        *self == Outcomes::default()
    }

    /// Adds the outcomes' keys to a result object (a result that is not an object is left as is).
    pub fn merge_into(&self, result: &mut Value) {
        let (Value::Object(target), Ok(Value::Object(extra))) =
            (result, serde_json::to_value(self))
        else {
            return;
        };
        for (key, value) in extra {
            target.insert(key, value);
        }
    }
}

#[cfg(test)]
mod outcome_tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn outcomes_add_only_the_keys_they_have() {
        let mut result = json!({"clicked": {"tag": "button"}, "tabId": 3});
        Outcomes::default().merge_into(&mut result);
        assert_eq!(result, json!({"clicked": {"tag": "button"}, "tabId": 3}));
        let outcomes = Outcomes {
            dialogs: vec![DialogReport {
                r#type: "confirm".into(),
                message: "Delete?".into(),
                answer: DialogAnswered::Dismissed,
                prompt_text: None,
            }],
            opened_tab: Some(OpenedTab {
                tab_id: 9,
                url: "http://a.test/".into(),
            }),
            ..Outcomes::default()
        };
        outcomes.merge_into(&mut result);
        assert_eq!(
            result,
            json!({"clicked": {"tag": "button"}, "tabId": 3,
                   "dialogs": [{"type": "confirm", "message": "Delete?", "answer": "dismissed"}],
                   "openedTab": {"tabId": 9, "url": "http://a.test/"}})
        );
    }
}
