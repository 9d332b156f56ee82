//! proptest strategies for valid actions and messages.

use bua_protocol::*;
use proptest::collection::{btree_map, vec};
use proptest::prelude::*;
use proptest::strategy::BoxedStrategy;

/// A non-empty, non-blank string (letters, digits, punctuation, spaces, some non-ASCII).
pub fn word() -> impl Strategy<Value = String> {
    "[a-zA-Z0-9#.:_ \\-\\[\\]=\"'/é中]{0,12}[a-zA-Z0-9é中]"
}

pub fn any_text() -> impl Strategy<Value = String> {
    "[ -~é中\\n]{0,20}"
}

pub fn tab_id() -> impl Strategy<Value = Option<TabId>> {
    proptest::option::of(0..=MAX_TAB_ID)
}

pub fn url() -> impl Strategy<Value = String> {
    prop_oneof![
        (
            "(http|https)",
            "[a-z]{1,10}",
            "(\\.example|\\.com|:8080)?",
            "(/[a-z0-9]{0,6}){0,3}"
        )
            .prop_map(|(s, h, t, p)| format!("{s}://{h}{t}{p}")),
        Just("about:blank".to_owned()),
        "[a-z]{1,8}".prop_map(|f| format!("file:///tmp/{f}.html")),
    ]
}

/// A float that round-trips exactly through JSON text too.
pub fn px(lo: i32, hi: i32) -> impl Strategy<Value = f64> {
    (lo * 4..=hi * 4).prop_map(|n| f64::from(n) / 4.0)
}

pub fn locator() -> impl Strategy<Value = Locator> {
    prop_oneof![
        (0u32..5000).prop_map(|n| Locator::Uid(format!("e{n}"))),
        (word(), 0u32..5).prop_map(|(selector, index)| Locator::Selector { selector, index }),
        (word(), 0u32..5).prop_map(|(text, index)| Locator::Text { text, index }),
        (word(), 0u32..5).prop_map(|(xpath, index)| Locator::Xpath { xpath, index }),
    ]
}

/// Any of `items`, none to all, each at most once, in any order.
fn some_of<T: Clone + std::fmt::Debug + 'static>(items: Vec<T>) -> impl Strategy<Value = Vec<T>> {
    let all = items.len();
    proptest::sample::subsequence(items, 0..=all).prop_shuffle()
}

fn modifiers() -> impl Strategy<Value = Vec<Modifier>> {
    some_of(vec![
        Modifier::Alt,
        Modifier::Ctrl,
        Modifier::Shift,
        Modifier::Meta,
    ])
}

fn extract_parts() -> impl Strategy<Value = Vec<ExtractPart>> {
    some_of(vec![
        ExtractPart::Markdown,
        ExtractPart::Elements,
        ExtractPart::Text,
    ])
}

fn choice() -> impl Strategy<Value = OptionChoice> {
    prop_oneof![
        vec(any_text(), 1..4).prop_map(OptionChoice::Value),
        vec(word(), 1..4).prop_map(OptionChoice::Label),
        vec(0u32..100, 1..4).prop_map(OptionChoice::Index),
    ]
}

fn wait_state() -> impl Strategy<Value = WaitState> {
    prop_oneof![
        Just(WaitState::Visible),
        Just(WaitState::Attached),
        Just(WaitState::Hidden)
    ]
}

/// `dialog` + `promptText`: omitted, either answer, a prompt text alone or with accept.
fn dialog() -> impl Strategy<Value = DialogPolicy> {
    prop_oneof![
        Just(DialogPolicy::default()),
        Just(DialogPolicy {
            answer: Some(DialogAnswer::Dismiss),
            prompt_text: None
        }),
        (
            proptest::option::of(Just(DialogAnswer::Accept)),
            proptest::option::of(any_text())
        )
            .prop_map(|(answer, prompt_text)| DialogPolicy {
                answer,
                prompt_text
            }),
    ]
}

fn load_wait() -> impl Strategy<Value = Option<u32>> {
    proptest::option::of(0u32..=MAX_LOAD_WAIT_MS as u32)
}

/// The parameters of `go_back`, `go_forward` and `reload`.
fn tab_load() -> impl Strategy<Value = TabLoad> {
    (tab_id(), load_wait()).prop_map(|(tab_id, load_wait_ms)| TabLoad {
        tab_id,
        load_wait_ms,
        dialog: DialogPolicy::default(),
    })
}

fn navigation() -> BoxedStrategy<Action> {
    prop_oneof![
        (url(), any::<bool>(), load_wait()).prop_map(|(url, focus, load_wait_ms)| {
            Action::OpenTab(OpenTab {
                url,
                focus,
                load_wait_ms,
            })
        }),
        (url(), tab_id(), load_wait(), dialog()).prop_map(|(url, tab_id, load_wait_ms, dialog)| {
            Action::Navigate(Navigate {
                url,
                tab_id,
                load_wait_ms,
                dialog,
            })
        }),
        tab_load().prop_map(Action::GoBack),
        tab_load().prop_map(Action::GoForward),
        tab_load().prop_map(Action::Reload),
        Just(Action::GetTabs),
        (0..=MAX_TAB_ID).prop_map(|tab_id| Action::ActivateTab(ActivateTab { tab_id })),
        (tab_id(), dialog())
            .prop_map(|(tab_id, dialog)| Action::CloseTab(TabOnly { tab_id, dialog })),
        proptest::option::of(word()).prop_map(|owner| Action::CloseAgentTabs(OwnerOnly { owner })),
        proptest::option::of(word())
            .prop_map(|owner| Action::CloseAgentWindow(OwnerOnly { owner })),
    ]
    .boxed()
}

fn input() -> BoxedStrategy<Action> {
    prop_oneof![
        (locator(), tab_id(), any::<bool>(), dialog()).prop_map(
            |(locator, tab_id, new_tab, dialog)| Action::Click(Click {
                locator,
                tab_id,
                new_tab,
                dialog
            })
        ),
        (px(0, 5000), px(0, 5000), tab_id()).prop_map(|(x, y, tab_id)| Action::ClickAt(ClickAt {
            x,
            y,
            tab_id,
            dialog: DialogPolicy::default()
        })),
        (locator(), tab_id()).prop_map(|(locator, tab_id)| Action::Hover(Hover {
            locator,
            tab_id,
            dialog: DialogPolicy::default()
        })),
        (
            locator(),
            any_text(),
            any::<bool>(),
            any::<bool>(),
            tab_id()
        )
            .prop_map(|(locator, text, clear, submit, tab_id)| {
                Action::Type(TypeText {
                    locator,
                    text,
                    secret: None,
                    secret_origins: None,
                    clear,
                    submit,
                    tab_id,
                    dialog: DialogPolicy::default(),
                })
            }),
        (
            word(),
            modifiers(),
            proptest::option::of(locator()),
            any::<bool>(),
            load_wait(),
            tab_id()
        )
            .prop_map(
                |(key, modifiers, locator, wait_load, load_wait_ms, tab_id)| {
                    Action::PressKey(PressKey {
                        key,
                        modifiers,
                        locator,
                        wait_load,
                        load_wait_ms,
                        tab_id,
                        dialog: DialogPolicy::default(),
                    })
                }
            ),
        (
            prop_oneof![
                (proptest::option::of(px(-3000, 3000)), px(-3000, 3000)).prop_map(|(dx, dy)| (
                    dx,
                    Some(dy),
                    false
                )),
                px(-3000, 3000).prop_map(|dx| (Some(dx), None, false)),
                Just((None, None, true)),
            ],
            proptest::option::of(locator()),
            tab_id()
        )
            .prop_map(
                |((dx, dy, to_end), locator, tab_id)| Action::Scroll(Scroll {
                    dx,
                    dy,
                    to_end,
                    locator,
                    tab_id
                })
            ),
        (locator(), choice(), tab_id()).prop_map(|(locator, choice, tab_id)| Action::SelectOption(
            SelectOption {
                locator,
                choice,
                tab_id,
                dialog: DialogPolicy::default()
            }
        )),
        (locator(), any::<bool>(), tab_id()).prop_map(|(locator, checked, tab_id)| Action::Check(
            Check {
                locator,
                checked,
                tab_id,
                dialog: DialogPolicy::default()
            }
        )),
        (locator(), any_text(), tab_id()).prop_map(|(locator, value, tab_id)| Action::SetValue(
            SetValue {
                locator,
                value,
                tab_id,
                dialog: DialogPolicy::default()
            }
        )),
    ]
    .boxed()
}

fn reading() -> BoxedStrategy<Action> {
    prop_oneof![
        (locator(), tab_id())
            .prop_map(|(locator, tab_id)| Action::GetValue(GetValue { locator, tab_id })),
        (
            prop_oneof![
                locator().prop_map(WaitTarget::Locator),
                word().prop_map(WaitTarget::TextContains)
            ],
            wait_state(),
            0u64..=30_000,
            tab_id()
        )
            .prop_map(
                |(target, state, timeout_ms, tab_id)| Action::WaitFor(WaitFor {
                    target,
                    state,
                    timeout_ms,
                    tab_id
                })
            ),
        // `refs` is set by the MCP server, not part of the schema agents see (as `staged` below).
        (
            tab_id(),
            extract_parts(),
            proptest::option::of(1u32..=100_000)
        )
            .prop_map(|(tab_id, include, page)| {
                Action::Extract(Extract {
                    tab_id,
                    include,
                    refs: false,
                    page,
                })
            }),
        (
            word(),
            tab_id(),
            proptest::option::of(prop_oneof![Just("e3".to_string()), Just("f1".to_string())]),
            dialog()
        )
            .prop_map(
                |(expression, tab_id, frame, dialog)| Action::Evaluate(Evaluate {
                    expression,
                    tab_id,
                    frame,
                    dialog
                })
            ),
        (
            word(),
            proptest::option::of(btree_map(word(), word(), 1..4)),
            proptest::option::of(1u32..1000),
            proptest::option::of(0u64..=30_000),
            tab_id()
        )
            .prop_map(
                |(item, fields, limit, timeout_ms, tab_id)| Action::Scrape(Scrape {
                    item,
                    fields,
                    limit,
                    timeout_ms,
                    tab_id
                })
            ),
        (
            tab_id(),
            any::<bool>(),
            prop_oneof![
                Just((ImageFormat::Png, None)),
                proptest::option::of(0u8..=100).prop_map(|q| (ImageFormat::Jpeg, q))
            ],
            proptest::option::of(1u32..5000)
        )
            .prop_map(|(tab_id, full_page, (format, quality), max_width)| {
                Action::Screenshot(Screenshot {
                    tab_id,
                    full_page,
                    format,
                    quality,
                    max_width,
                    locator: None,
                })
            }),
        (locator(), tab_id()).prop_map(|(locator, tab_id)| Action::Screenshot(Screenshot {
            tab_id,
            locator: Some(locator),
            ..Screenshot::default()
        })),
    ]
    .boxed()
}

/// The actions of uploads, drags, the tab's logs and PDF.
fn observing() -> BoxedStrategy<Action> {
    prop_oneof![
        (locator(), vec(word(), 1..4), tab_id()).prop_map(|(locator, files, tab_id)| {
            Action::Upload(Upload {
                locator,
                files,
                staged: None,
                tab_id,
            })
        }),
        (
            locator(),
            prop_oneof![
                locator().prop_map(DropTarget::Element),
                (px(0, 2000), px(0, 2000)).prop_map(|(x, y)| DropTarget::Point { x, y })
            ],
            tab_id()
        )
            .prop_map(|(from, to, tab_id)| Action::Drag(Drag { from, to, tab_id })),
        (
            tab_id(),
            proptest::option::of(proptest::sample::select(vec![
                ConsoleLevel::Debug,
                ConsoleLevel::Log,
                ConsoleLevel::Warning,
                ConsoleLevel::Error
            ])),
            proptest::option::of(0u64..1_000_000)
        )
            .prop_map(|(tab_id, level, since)| Action::Console(Console {
                tab_id,
                level,
                since
            })),
        (
            tab_id(),
            proptest::option::of(word()),
            proptest::option::of(0u64..1_000_000)
        )
            .prop_map(|(tab_id, filter, since)| Action::Network(Network {
                tab_id,
                filter,
                since
            })),
        (tab_id(), any::<bool>(), any::<bool>()).prop_map(
            |(tab_id, landscape, print_background)| Action::Pdf(Pdf {
                tab_id,
                landscape,
                print_background
            })
        ),
        (tab_id(), proptest::option::of(0u64..=30_000))
            .prop_map(|(tab_id, wait_ms)| Action::Downloads(Downloads { tab_id, wait_ms })),
    ]
    .boxed()
}

/// Any valid action.
pub fn action() -> BoxedStrategy<Action> {
    prop_oneof![navigation(), input(), reading(), observing()].boxed()
}

fn error_body() -> impl Strategy<Value = ErrorBody> {
    (
        proptest::sample::select(ErrorCode::all().to_vec()),
        any_text(),
    )
        .prop_map(|(code, message)| ErrorBody { code, message })
}

fn event() -> impl Strategy<Value = Event> {
    let t = || (0u32..2000000).prop_map(|n| f64::from(n) * 1000.0 + 0.5);
    prop_oneof![
        (
            0..=MAX_TAB_ID,
            word(),
            t(),
            prop_oneof![Just("agent".to_owned()), Just("user".to_owned())]
        )
            .prop_map(
                |(tab_id, domain, started_at, owner)| Event::SessionStarted {
                    tab_id,
                    domain,
                    started_at,
                    owner
                }
            ),
        (
            0..=MAX_TAB_ID,
            word(),
            proptest::sample::select(EndReason::all().to_vec()),
            t(),
            t(),
            0u32..1000
        )
            .prop_map(
                |(tab_id, domain, reason, started_at, ended_at, action_count)| {
                    Event::SessionEnded {
                        tab_id,
                        domain,
                        reason,
                        started_at,
                        ended_at,
                        action_count,
                    }
                }
            ),
        (word(), proptest::option::of(url()), tab_id()).prop_map(|(domain, url, tab_id)| {
            Event::DomainBlocked {
                domain,
                url,
                tab_id,
            }
        }),
        (t(), 0u32..50).prop_map(|(at, session_count)| Event::GlobalStop { at, session_count }),
        (0..=MAX_TAB_ID).prop_map(|tab_id| Event::TabClosed { tab_id }),
    ]
}

/// Any valid bridge → extension frame.
pub fn to_extension() -> BoxedStrategy<ToExtension> {
    prop_oneof![
        (
            "[0-9a-f-]{36}",
            proptest::option::of("cli-[0-9a-f]{4}"),
            action()
        )
            .prop_map(|(id, owner, action)| ToExtension::Request(Request {
                id,
                owner,
                action
            })),
        (1u32..10, word(), proptest::option::of(word())).prop_map(
            |(protocol_version, server_version, client_id)| {
                ToExtension::Ack(Ack {
                    protocol_version,
                    server_version,
                    client_id,
                    controls: None,
                })
            }
        ),
        error_body().prop_map(|error| ToExtension::Reject(Reject { error })),
        Just(ToExtension::Pong),
        (proptest::option::of(word()), error_body())
            .prop_map(|(id, error)| ToExtension::Error { id, error }),
    ]
    .boxed()
}

fn json_leaf() -> impl Strategy<Value = serde_json::Value> {
    prop_oneof![
        Just(serde_json::Value::Null),
        any::<bool>().prop_map(serde_json::Value::Bool),
        (-1000i64..1000).prop_map(serde_json::Value::from),
        any_text().prop_map(serde_json::Value::String),
    ]
}

/// Any valid extension → bridge frame.
pub fn from_extension() -> BoxedStrategy<FromExtension> {
    prop_oneof![
        (
            proptest::option::of(1u32..10),
            proptest::option::of(word()),
            proptest::option::of(word()),
            proptest::option::of(word())
        )
            .prop_map(|(protocol_version, extension_version, name, token)| {
                FromExtension::Hello(Hello {
                    role: Role::Extension,
                    protocol_version,
                    extension_version,
                    name,
                    token,
                    owner: None,
                })
            }),
        (word(), json_leaf()).prop_map(|(id, v)| FromExtension::Response(Response::ok(
            id,
            serde_json::json!({"value": v})
        ))),
        (word(), error_body()).prop_map(|(id, e)| FromExtension::Response(Response::err(id, e))),
        event().prop_map(|event| FromExtension::Event { event }),
        Just(FromExtension::Ping),
    ]
    .boxed()
}

/// Any valid client request.
pub fn client_request() -> BoxedStrategy<ClientRequest> {
    (word(), word(), action())
        .prop_map(|(id, _, action)| {
            let mut params = action.to_value();
            let method = params["type"].as_str().unwrap_or("get_tabs").to_owned();
            if let Some(m) = params.as_object_mut() {
                m.remove("type");
            }
            ClientRequest { id, method, params }
        })
        .boxed()
}
