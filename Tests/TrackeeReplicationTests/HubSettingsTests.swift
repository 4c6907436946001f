import Foundation
import Testing
import TrackeeTestSupport

/// The settings' `hub:` section: each mistake is one positioned sentence
/// and exit 78 from every command, before the store is touched.
@Suite struct HubSettingsTests {
    @Test(arguments: [
        ("hub:\n  device: laptop\n",
         "config.yaml:1: hub has no url (a PostgreSQL URL such as postgresql://hub.example.org/trackee)"),
        ("hub:\n  url: mysql://x/y\n",
         "config.yaml:2: hub.url is \"mysql://x/y\"; expected a PostgreSQL URL such as postgresql://hub.example.org/trackee"),
        ("hub:\n  url: postgresql:///t\n  sslmode: sometimes\n",
         "config.yaml:3: hub.sslmode is \"sometimes\"; expected one of disable, allow, prefer, require, verify-ca, verify-full"),
        ("hub:\n  url: postgresql:///t\n  device: my laptop\n",
         "config.yaml:3: hub.device is \"my laptop\"; expected a name of letters, digits, '.', '-' and '_', at most 64"),
        ("hub:\n  url: postgresql:///t\n  password_env: A\n  password_file: /p\n",
         "config.yaml:4: hub.password_file: give password_file or password_env, not both"),
        ("hub:\n  url: postgresql:///t\n  port: 5432\n",
         "config.yaml:3: unknown key hub.port; known keys are url, user, password_file, password_env, sslmode, device, sync_device"),
        ("hub: yes\n",
         "config.yaml:1: hub is \"yes\"; expected a mapping with url, user, password_file, password_env, sslmode, device, sync_device"),
    ])
    func badHubSettingsAreRefusedWithTheirLine(settings: String, message: String) throws {
        let t = try Sandbox()
        try t.write(settings, to: "config/trackee/config.yaml")
        let r = try t.run("status")
        #expect(r.status == 78, "\(r)")
        #expect(r.stderr == "trackee: \(t.path("config/trackee"))/\(message)\n")
        #expect(!FileManager.default.fileExists(atPath: t.storePath))
    }

    @Test func aPasswordFileOthersCanReadIsRefused() throws {
        let t = try Sandbox()
        let file = try t.write("secret\n", to: "config/trackee/hub.password")
        chmod(file, 0o644)
        try t.write("hub:\n  url: postgresql:///t\n  password_file: \(file)\n", to: "config/trackee/config.yaml")
        let r = try t.run("status")
        #expect(r.status == 78)
        #expect(r.stderr == failure(
            "\(t.path("config/trackee/config.yaml")):3: \(file): the password file can be read by other users; run chmod 600 \(file)"))
    }

    @Test func aGoodSectionLeavesOneShotCommandsAsTheyWere() throws {
        let t = try Sandbox()
        try t.write("hub:\n  url: postgresql://hub.example.org/trackee\n  password_env: HUB_PASSWORD\n  device: laptop\n",
                    to: "config/trackee/config.yaml")
        let r = try t.run("status")
        #expect(r.status == 0)
        #expect(r.stderr == "")
        #expect(r.stdout == "no timer running\ntoday   0:00\nweek    0:00\n")
    }
}
