//! End-to-end tests of the foundation issue (issue 2) in real headless Chromium. Being written.
