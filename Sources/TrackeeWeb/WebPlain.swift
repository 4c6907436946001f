/// The pages without a session: the sign-in form, and a page that says
/// one thing (a refusal, a page that is not there).
enum WebPlain {
    static func signIn(alert: String?, days: Int64) -> String {
        let main = "<h1>Sign in to trackee</h1>\n" + WebHTML.alert(alert)
            + "<form id=\"sign-in\" class=\"sign-in\" method=\"post\" action=\"/sign-in\">"
            + "<label for=\"token\">Token</label>"
            + "<input id=\"token\" name=\"token\" type=\"password\" autocomplete=\"off\" spellcheck=\"false\" required "
            + "aria-describedby=\"token-hint\">"
            + "<p id=\"token-hint\" class=\"hint muted\">A token from <code>trackee tokens add NAME --scope read,start,stop,cancel</code>.</p>"
            + "<button type=\"submit\" class=\"primary\">Sign in</button></form>\n"
            + "<p class=\"muted\">Signing in keeps a session in this browser for \(days) days: a cookie that scripts cannot read, "
            + "kept in trackee's store only as a hash. The token itself is not kept. <code>trackee tokens list</code> lists the "
            + "sessions; <code>trackee tokens revoke</code> ends them with the token.</p>\n"
        return WebHTML.document(title: "Sign in · trackee", main: main, mainID: "signin", csrf: nil,
                                bar: "<a class=\"brand\" href=\"/\">trackee</a>")
    }

    static func html(_ title: String, _ sentence: String, link: Bool) -> String {
        let main = "<h1>\(WebHTML.text(title))</h1>\n<p role=\"alert\">\(WebHTML.text(sentence))</p>\n"
            + (link ? "<p><a href=\"/\">Back to the page</a></p>\n" : "")
        return WebHTML.document(title: title + " · trackee", main: main, mainID: "plain", csrf: nil,
                                bar: "<a class=\"brand\" href=\"/\">trackee</a>")
    }
}
