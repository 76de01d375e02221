//! println!("in a doc comment")
pub fn start(port: u16) {
    println!("listening on {port}");
    print!("ready ");
    println!();
    let _s = "println!(\"in a string\")";
}
