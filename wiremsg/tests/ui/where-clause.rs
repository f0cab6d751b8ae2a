use wiremsg::WireMsg;

#[derive(WireMsg)]
struct Note<'a>
where
    'a: 'static,
{
    text: &'a str,
}

fn main() {}
