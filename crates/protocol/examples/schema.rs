//! Prints the JSON Schema of the action union: `cargo run -p bua-protocol --example schema`.

fn main() {
    match serde_json::to_string_pretty(&bua_protocol::json_schema()) {
        Ok(s) => println!("{s}"),
        Err(e) => eprintln!("error: {e}"),
    }
}
