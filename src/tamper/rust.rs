//! Rust: libtest and the attribute macros that wrap it (`#[tokio::test]`, rstest,
//! test-case), `#[ignore]`, and the `assert*!` macro families. Tests in a `#[cfg(test)]`
//! module of a `src/` file count like any other.

use super::lex::{Backtick, SingleQuote, Syntax};
use super::pattern::{Name, Pattern, Tok};
use super::{Language, Table};

/// The Rust table.
pub(crate) const TABLE: Table = Table {
    language: Language::Rust,
    extensions: &["rs"],
    syntax: Syntax {
        hash_comments: false,
        slash_comments: true,
        nested_block_comments: true,
        single_quote: SingleQuote::Char,
        triple_quotes: false,
        backtick: Backtick::Punct,
        multiline_strings: true,
        rust_raw_strings: true,
        regex_literals: false,
        unicode_line_ends: false,
    },
    tests: &[
        // `#[test]`, and any attribute whose path ends in `test`: `#[tokio::test]`,
        // `#[async_std::test]`, `#[sqlx::test(…)]`, `#[test_log::test]`. test-case counts
        // each `#[test_case(…)]`; test-strategy's `#[proptest]`, `#[test_matrix]`,
        // googletest's `#[gtest]`, yare's `#[parameterized]`, test-casing's
        // `#[test_casing]` and rstest_reuse's `#[apply(template)]` are tests too.
        Pattern::new(&[
            Tok::Punct(b"#"),
            Tok::Punct(b"["),
            Tok::Path(Name::Is(&[
                "test",
                "rstest",
                "test_case",
                "wasm_bindgen_test",
                "quickcheck",
                "proptest",
                "test_matrix",
                "gtest",
                "parameterized",
                "test_casing",
                "apply",
            ])),
        ]),
        // rstest counts the function and each case, `#[case(…)]` or `#[case::name(…)]`,
        // but not the `#[case]` that marks a parameter.
        Pattern::new(&[
            Tok::Punct(b"#"),
            Tok::Punct(b"["),
            Tok::Ident(Name::Is(&["case"])),
            Tok::Punct(b"(:"),
        ]),
    ],
    skips: &[
        // `#[ignore]`, `#[ignore = "reason"]`.
        Pattern::new(&[
            Tok::Punct(b"#"),
            Tok::Punct(b"["),
            Tok::Path(Name::Is(&["ignore"])),
        ]),
    ],
    assertions: &[
        // `assert!`, `assert_eq!`, `assert_ne!`, `assert_matches!`, `prop_assert*!`, insta's
        // `assert_*snapshot!`: a macro whose name starts so. Not `debug_assert*!`: it checks
        // nothing in a release build, and library code is full of it.
        Pattern::new(&[
            Tok::Ident(Name::StartsWith(&["assert", "prop_assert"])),
            Tok::Punct(b"!"),
        ]),
    ],
    disables: &[
        // `#[should_panic]`, `#[should_panic(expected = "…")]`: the test now passes when it
        // fails. On a test added with it, the added test offsets it.
        Pattern::new(&[
            Tok::Punct(b"#"),
            Tok::Punct(b"["),
            Tok::Ident(Name::Is(&["should_panic"])),
        ])
        .at_start(),
    ],
    weakeners: &[
        // `macro_rules! assert_eq { … }`: the assertions below call it instead. Only the
        // standard names: a macro of a new name (`assert_eq_printed!`) redefines nothing.
        Pattern::new(&[
            Tok::Ident(Name::Is(&["macro_rules"])),
            Tok::Punct(b"!"),
            Tok::Ident(Name::Is(&[
                "assert",
                "assert_eq",
                "assert_ne",
                "assert_matches",
                "debug_assert",
                "debug_assert_eq",
                "debug_assert_ne",
            ])),
        ])
        .at_start(),
        // `use std::assert_ne as assert_eq;` is found by the analysis itself (on a `use`
        // line only).
    ],
    // `std::panic::catch_unwind(|| { assert_eq!(…) })`: a failed assertion is a caught panic.
    swallowers: &[Pattern::new(&[
        Tok::Path(Name::Is(&["catch_unwind"])),
        Tok::Punct(b"("),
    ])],
    selectors: &[],
};

#[cfg(test)]
mod tests {
    use crate::tamper::tamper_cases;
    use crate::tamper::tests::totals;

    const MODULE: &str = r"pub fn add(a: i32, b: i32) -> i32 {
    a + b
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adds() {
        assert_eq!(add(1, 2), 3);
        assert!(add(0, 0) == 0);
    }

    #[test]
    fn negative() {
        assert_eq!(add(-1, -2), -3);
    }
}
";

    fn edit(from: &str, to: &str) -> String {
        assert!(MODULE.contains(from), "{from}");
        MODULE.replacen(from, to, 1)
    }

    const ADDS: &str = "    #[test]\n    fn adds() {\n        assert_eq!(add(1, 2), 3);\n        assert!(add(0, 0) == 0);\n    }\n\n";

    tamper_cases! {
        // ripgrep's 3d6a39be06aa: a check per platform made one check.
        alternatives_collapsed_to_one: "tests/t.rs", "#[test]\nfn t() {\n    if cfg!(windows) {\n        assert_eq!(a(), 1);\n    } else {\n        assert_eq!(a(), 2);\n    }\n}\n" => "#[test]\nfn t() {\n    assert_eq!(a(), 2);\n}\n", [0, 0, 0];
        deleting_a_test_in_a_src_module: "src/math.rs", MODULE => edit(ADDS, ""), [1, 0, 2];
        adding_ignore: "src/math.rs", MODULE => edit("    #[test]\n    fn negative", "    #[test]\n    #[ignore = \"flaky\"]\n    fn negative"), [0, 1, 0];
        removing_an_assertion: "src/math.rs", MODULE => edit("        assert!(add(0, 0) == 0);\n", ""), [0, 0, 1];
        weakening_assert_eq_to_assert: "src/math.rs", MODULE => edit("assert_eq!(add(-1, -2), -3)", "assert!(true)"), [0, 0, 0];
        // An attribute applies to the item right below it, not to a new test further down.
        ignoring_a_renamed_test_above_a_new_one: "src/math.rs", MODULE => edit("    #[test]\n    fn negative() {\n        assert_eq!(add(-1, -2), -3);\n    }", "    #[test]\n    #[ignore]\n    fn negative_two() { assert_eq!(add(-1, -2), -3); }\n    #[test]\n    fn more() { assert!(add(1, 1) == 2); }"), [-1, 1, -1];
        // The diff lines up the old test's `#[test]` with a new one's: the test below the
        // added `#[test]`, ignored, is named as one the old side has.
        ignoring_a_test_below_a_new_one: "src/math.rs", MODULE => edit("    #[test]\n    fn negative() {", "    #[test]\n    fn more() {\n        assert_eq!(add(2, 2), 4);\n    }\n\n    #[test]\n    #[ignore]\n    fn negative() {"), [-1, 1, -1];
        // A comment between the attributes and the `fn` is not its name.
        a_comment_below_an_added_test_attribute: "src/math.rs", MODULE => edit("    #[test]\n    fn negative() {", "    #[test]\n    fn more() {\n        assert_eq!(add(2, 2), 4);\n    }\n\n    #[test]\n    #[ignore]\n    // flaky, see issue(412)\n    fn negative() {"), [-1, 1, -1];
        renaming_a_test: "src/math.rs", MODULE => edit("fn negative()", "fn adds_negatives()"), [0, 0, 0];
        adding_tests: "tests/math.rs", MODULE => edit("    #[test]\n    fn negative", "    #[tokio::test]\n    async fn more() { assert!(true); }\n\n    #[test]\n    fn negative"), [-1, 0, -1];
        test_attribute_in_comments_and_strings: "src/math.rs", MODULE => edit("    use super::*;\n", "    use super::*;\n    // #[test] assert!(x)\n    /* #[test]\n       assert_eq!(a, b) */\n    const S: &str = \"#[test] assert!(x)\";\n    const R: &str = r#\"\n#[test]\n\"#;\n    /// assert_eq!(doc, test);\n"), [0, 0, 0];
        commenting_out_a_test_line_by_line: "src/math.rs", MODULE => edit("    #[test]\n    fn negative() {\n        assert_eq!(add(-1, -2), -3);\n    }", "    // #[test]\n    // fn negative() {\n    //     assert_eq!(add(-1, -2), -3);\n    // }"), [1, 0, 1];
        commenting_out_with_a_block_comment: "src/math.rs", MODULE => edit("    #[test]\n    fn negative", "    /*\n    #[test]\n    fn negative").replacen("    }\n}\n", "    }\n    */\n}\n", 1), [1, 0, 1];
        // `debug_assert_ne!` is not an assertion (it checks nothing in a release build).
        wrapper_attributes: "tests/a.rs", "#[tokio::test(flavor = \"multi_thread\")]\nasync fn a() {}\n#[rstest]\n#[case(1)]\n#[case(2)]\nfn b(#[case] x: u8) { debug_assert_ne!(x, 0); prop_assert_eq!(x, x); }\n" => "", [4, 0, 1];
        helper_names_are_not_assertions: "src/a.rs", "fn f() { my_assert_helper!(x); assertion(x); self.assert(); }\n" => "", [0, 0, 0];
        lifetimes_do_not_open_literals: "tests/a.rs", "fn f<'a>(x: &'a str) -> &'a str { assert!(x.len() > 0); x }\n" => "", [0, 0, 1];
        library_assertions_are_not_the_tests: "src/a.rs", "fn f(x: &str) -> &str { assert!(x.len() > 0); x }\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn t() {\n        assert!(true);\n    }\n}\n" => "fn f(x: &str) -> &str { x }\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn t() {\n        assert!(true);\n    }\n}\n", [0, 0, 0];
        test_module_assertions_count: "src/a.rs", "fn f(x: &str) -> &str { assert!(x.len() > 0); x }\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn t() {\n        assert!(f(\"a\") == \"a\");\n    }\n}\n" => "fn f(x: &str) -> &str { assert!(x.len() > 0); x }\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn t() {\n    }\n}\n", [0, 0, 1];
    }

    #[test]
    fn moving_a_test_between_files_nets_out() {
        let test = "#[test]\nfn moved() {\n    assert!(true);\n}\n";
        assert_eq!(
            totals(&[
                ("src/a.rs", &format!("fn a() {{}}\n{test}"), "fn a() {}\n"),
                ("tests/b.rs", "", test),
            ]),
            (0, 0, 0)
        );
    }

    #[test]
    fn known_false_positive_test_tokens_in_a_quote_macro() {
        // Code that generates tests (a proc macro's `quote!`) is code, not a string: its
        // `#[test]` counts. Deleting the generator does delete the tests it makes.
        assert_eq!(
            totals(&[(
                "macros/src/lib.rs",
                "quote! { #[test] fn generated() {} }\n",
                ""
            )]),
            (1, 0, 0)
        );
    }
}

#[cfg(test)]
mod macro_tests {
    use crate::tamper::tests::report;

    const SHERLOCK: &str = "macro_rules! sherlock {
    ($name:ident, $fun:expr) => {
        #[test]
        fn $name() {
            $fun(setup());
        }
    };
}

sherlock!(single_file, |wd| {
    assert_eq!(wd.run(), \"x\");
});

sherlock!(dir, |wd| {
    assert_eq!(wd.run(), \"y\");
});

#[test]
fn plain() {
    assert!(true);
}
";

    const RGTEST: &str = "#[macro_export]
macro_rules! rgtest {
    ($name:ident, $fun:expr) => {
        #[test]
        fn $name() {
            $fun(setup());
        }
    };
}
";

    const FEATURE: &str = "rgtest!(single_file, |dir| {
    assert_eq!(dir.run(), \"x\");
});

rgtest!(dir, |dir| {
    assert_eq!(dir.run(), \"y\");
});

rgtest!(plain, |dir| {
    assert!(true);
});
";

    #[test]
    fn tests_rewritten_from_one_test_macro_to_another_count_by_invocations() {
        let report = report(&[
            ("tests/tests.rs", SHERLOCK, ""),
            ("tests/macros.rs", "", RGTEST),
            ("tests/feature.rs", "", FEATURE),
        ]);
        // Three tests before (two `sherlock!`, one `#[test]`), three after (`rgtest!`).
        assert_eq!(report.tests_removed, 0, "{report:#?}");
        // One fewer `rgtest!` is one test removed.
        let fewer = FEATURE.replacen("rgtest!(plain, |dir| {\n    assert!(true);\n});\n", "", 1);
        let report = super::super::tests::report(&[
            ("tests/tests.rs", SHERLOCK, ""),
            ("tests/macros.rs", "", RGTEST),
            ("tests/feature.rs", "", &fewer),
        ]);
        assert_eq!(report.tests_removed, 1, "{report:#?}");
        let removed: Vec<_> = report
            .findings()
            .filter(|f| f.kind == crate::tamper::FindingKind::TestRemoved)
            .map(|f| f.text.as_str())
            .collect();
        assert!(
            removed.contains(&"sherlock!(single_file, |wd| {"),
            "{removed:?}"
        );
    }

    #[test]
    fn a_test_macro_deleted_with_its_invocations_removes_each_test() {
        let report = report(&[("tests/tests.rs", SHERLOCK, "")]);
        assert_eq!(report.tests_removed, 3, "{report:#?}");
    }

    #[test]
    fn a_macro_without_tests_is_not_a_test_macro() {
        let old = "macro_rules! point {\n    ($x:expr) => { Point { x: $x } };\n}\n\npoint!(1);\n";
        let report = report(&[("src/a.rs", old, "")]);
        assert_eq!(report.tests_removed, 0, "{report:#?}");
    }
}
