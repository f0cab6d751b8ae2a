// A type of the user's named like a primitive (`u64`) in a field: the derive takes
// the name for the primitive (no tail, a check that always passes) and says so at
// the field, rather than leaving the type's own check out of encoding.
mod shadowed {
    #[allow(non_camel_case_types)]
    #[derive(wiremsg::WireMsg, Debug, PartialEq)]
    pub struct u64 {
        pub s: String,
    }

    #[derive(wiremsg::WireMsg, Debug, PartialEq)]
    pub struct Holder {
        pub x: u64,
    }
}

// The same for an `Option` of the user's.
mod shadowed_option {
    #[derive(wiremsg::WireMsg, Debug, PartialEq)]
    pub struct Option<T: 'static> {
        pub s: String,
        pub t: ::core::option::Option<T>,
    }

    #[derive(wiremsg::WireMsg, Debug, PartialEq)]
    pub struct Holder {
        pub x: Option<u64>,
        // The standard types by their paths are read as they are.
        pub y: ::core::option::Option<u64>,
        pub z: ::core::primitive::u64,
    }
}

fn main() {}
