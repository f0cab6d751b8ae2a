//! The golden vectors of FORMAT.md, read from the file itself (included by path in
//! every test that checks them, the `wiremsg` tool's tests among them).

/// FORMAT.md.
pub(crate) const FORMAT: &str = include_str!("../../../FORMAT.md");

/// The bytes of the hex block under `<!-- golden: NAME -->` in FORMAT.md.
pub(crate) fn golden(name: &str) -> Vec<u8> {
    let marker = format!("<!-- golden: {name} -->");
    let start = FORMAT
        .find(&marker)
        .unwrap_or_else(|| panic!("{marker} not in FORMAT.md"));
    let block = &FORMAT[start..];
    let open = block.find("```text\n").expect("hex block") + "```text\n".len();
    let close = open + block[open..].find("```").expect("end of hex block");
    block[open..close]
        .lines()
        .flat_map(|line| line.split('#').next().unwrap_or("").split_whitespace())
        .map(|byte| u8::from_str_radix(byte, 16).expect("hex byte"))
        .collect()
}
