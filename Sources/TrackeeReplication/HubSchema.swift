// Over 400 lines on purpose: most of it is the hub's append-only migrations
// as SQL, kept in one list in order, as the store's are.
/// The hub's schema: versioned, append-only migrations, as the local
/// store's are. Each runs once, in order, in the transaction that records
/// it in `trackee_migration`; a hub that has a migration this list does
/// not know was set up by a newer trackee, and is refused rather than
/// written to.
public enum HubSchema {
    public struct Migration: Sendable {
        public let id: String
        public let sql: String
    }

    /// The table that records what has been applied.
    public static let ledger = """
        CREATE TABLE IF NOT EXISTS trackee_migration (
            id text PRIMARY KEY,
            applied timestamptz NOT NULL DEFAULT now()
        )
        """

    /// Never edit or reorder one; add a new one at the end.
    public static let migrations: [Migration] = [
        Migration(id: "2026-11-26-devices-and-changes", sql: """
            CREATE TABLE device (
                name text PRIMARY KEY,
                person text NOT NULL DEFAULT current_user,
                registered timestamptz NOT NULL DEFAULT now()
            );
            CREATE TABLE change (
                id bigserial PRIMARY KEY,
                person text NOT NULL DEFAULT current_user,
                device text NOT NULL REFERENCES device (name),
                sequence bigint NOT NULL,
                clock text NOT NULL,
                kind text NOT NULL,
                body jsonb NOT NULL,
                UNIQUE (device, sequence)
            );
            """),
        // Each device's number (the last three digits of the ids of the
        // rows it makes) and the store that holds its name, so a second
        // store cannot join as the same device.
        Migration(id: "2026-11-27-device-numbers", sql: """
            CREATE SEQUENCE device_number MINVALUE 1 MAXVALUE 999;
            ALTER TABLE device ADD COLUMN number integer UNIQUE DEFAULT nextval('device_number');
            ALTER TABLE device ADD COLUMN store text;
            """),
        // People: each is a PostgreSQL role, and their changes are theirs
        // by row-level security, enforced by the database for every role
        // (the tables' owner too: FORCE). `share` holds what each person
        // lets another do with their timeline: read it, or also write it.
        Migration(id: "2026-11-28-sharing", sql: """
            CREATE TABLE share (
                owner text NOT NULL DEFAULT current_user,
                grantee text NOT NULL,
                level text NOT NULL CHECK (level IN ('read', 'write')),
                PRIMARY KEY (owner, grantee)
            );
            ALTER TABLE share ENABLE ROW LEVEL SECURITY;
            ALTER TABLE share FORCE ROW LEVEL SECURITY;
            CREATE POLICY share_seen ON share FOR SELECT USING (owner = current_user OR grantee = current_user);
            CREATE POLICY share_given ON share FOR INSERT WITH CHECK (owner = current_user);
            CREATE POLICY share_changed ON share FOR UPDATE USING (owner = current_user) WITH CHECK (owner = current_user);
            CREATE POLICY share_taken ON share FOR DELETE USING (owner = current_user);
            ALTER TABLE change ENABLE ROW LEVEL SECURITY;
            ALTER TABLE change FORCE ROW LEVEL SECURITY;
            CREATE POLICY change_read ON change FOR SELECT USING (
                person = current_user
                OR EXISTS (SELECT 1 FROM share s WHERE s.owner = change.person AND s.grantee = current_user));
            CREATE POLICY change_write ON change FOR INSERT WITH CHECK (
                person = current_user
                OR EXISTS (SELECT 1 FROM share s
                           WHERE s.owner = change.person AND s.grantee = current_user AND s.level = 'write'));
            ALTER TABLE device ENABLE ROW LEVEL SECURITY;
            ALTER TABLE device FORCE ROW LEVEL SECURITY;
            -- Every name is seen, so that a second store cannot take one.
            CREATE POLICY device_seen ON device FOR SELECT USING (true);
            CREATE POLICY device_own ON device FOR INSERT WITH CHECK (person = current_user);
            CREATE INDEX change_person ON change (person, id);
            GRANT SELECT, INSERT ON change, device TO PUBLIC;
            GRANT SELECT, INSERT, UPDATE, DELETE ON share TO PUBLIC;
            GRANT SELECT ON trackee_migration TO PUBLIC;
            GRANT USAGE ON SEQUENCE change_id_seq, device_number TO PUBLIC;
            """),
        // A person may be hostile to the others (README, "Several
        // devices"), and the database, not trackee, keeps each to their
        // own: see ``ownerAndPersons``.
        Migration(id: "2026-11-29-owner-and-persons", sql: ownerAndPersons),
    ]

    /// What the fourth migration does, on a new hub or on one an older
    /// trackee set up (in `public`, owned by the person who ran `hub init`,
    /// granted to PUBLIC). ``HubMigrator`` runs it with `trackee, public`
    /// as the search path, after making the roles `trackee_owner` and
    /// `trackee_person` and the schema `trackee`:
    ///
    /// - Everything moves into schema `trackee`, owned by `trackee_owner`,
    ///   a role no one logs in as: an owner can turn row-level security
    ///   off, truncate, add policies and drop tables, so no person owns
    ///   anything.
    /// - A device has an owner (who registered it) and a timeline (whose
    ///   changes its store holds: the owner's, or a copy of one shared
    ///   with them, named `DEVICE.OWNER`); names and numbers are unique
    ///   per timeline. Persons register only through `register`.
    /// - A change is unique by (timeline, device, sequence), and a person
    ///   writes one only under a device they own, into their own timeline
    ///   or one shared with them for writing. Its id is the hub's to give
    ///   (an identity no person may set): one behind a reader's cursor
    ///   would never reach them.
    /// - `person` holds each person's device limit and the channel their
    ///   devices are told of pushes on, which only they can read.
    /// - Nothing is granted to PUBLIC; `trackee_person` gets what persons
    ///   need, and every table's row-level security is forced.
    static let ownerAndPersons = """
        DO $$
        DECLARE
            found record;
        BEGIN
            FOR found IN
                SELECT n.nspname, c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                WHERE c.oid IN (to_regclass('trackee_migration'), to_regclass('device'), to_regclass('change'),
                                to_regclass('share'))
                  AND n.nspname <> 'trackee'
            LOOP
                EXECUTE format('ALTER TABLE %I.%I SET SCHEMA trackee', found.nspname, found.relname);
            END LOOP;
        END $$;

        ALTER TABLE trackee.change DROP CONSTRAINT change_device_fkey;
        ALTER TABLE trackee.change DROP CONSTRAINT change_device_sequence_key;
        ALTER TABLE trackee.device DROP CONSTRAINT device_pkey;
        ALTER TABLE trackee.device DROP CONSTRAINT device_number_key;
        ALTER TABLE trackee.device ALTER COLUMN number DROP DEFAULT;
        DROP SEQUENCE device_number;
        ALTER TABLE trackee.device RENAME COLUMN person TO owner;
        ALTER TABLE trackee.device ALTER COLUMN owner DROP DEFAULT;
        ALTER TABLE trackee.device ADD COLUMN timeline text;
        -- A device's timeline is the one its owner's changes went to; a
        -- copy of another's timeline (DEVICE.OWNER, shared with its owner
        -- or holding changes of that timeline) is that one's.
        UPDATE trackee.device d SET timeline = CASE
            WHEN EXISTS (SELECT 1 FROM trackee.change c WHERE c.device = d.name AND c.person = d.owner) THEN d.owner
            ELSE coalesce((
                SELECT p.name FROM (
                    SELECT s.owner AS name FROM trackee.share s WHERE s.grantee = d.owner
                    UNION SELECT c.person FROM trackee.change c WHERE c.device = d.name) p
                WHERE p.name <> d.owner AND right(d.name, length(p.name) + 1) = '.' || p.name
                ORDER BY length(p.name) DESC LIMIT 1), d.owner)
            END;
        -- Changes another role wrote under a device name of someone else's
        -- timeline (an older hub let any role do that): a device of their
        -- own timeline, which no store holds, keeps them.
        INSERT INTO trackee.device (name, owner, timeline, store)
        SELECT DISTINCT c.device, c.person, c.person, NULL::text FROM trackee.change c
        WHERE NOT EXISTS (SELECT 1 FROM trackee.device d WHERE d.timeline = c.person AND d.name = c.device);
        DO $$
        DECLARE
            unnumbered record;
        BEGIN
            FOR unnumbered IN SELECT timeline, name FROM trackee.device WHERE number IS NULL ORDER BY registered, name LOOP
                UPDATE trackee.device SET number = (
                    SELECT min(n) FROM generate_series(1, 999) n
                    WHERE n NOT IN (SELECT number FROM trackee.device
                                    WHERE timeline = unnumbered.timeline AND number IS NOT NULL))
                WHERE timeline = unnumbered.timeline AND name = unnumbered.name;
            END LOOP;
        END $$;
        ALTER TABLE trackee.device
            ALTER COLUMN timeline SET NOT NULL,
            ALTER COLUMN number SET NOT NULL,
            ADD CONSTRAINT device_number_range CHECK (number BETWEEN 1 AND 999),
            ADD PRIMARY KEY (timeline, name),
            ADD UNIQUE (timeline, number);
        ALTER TABLE trackee.change
            ALTER COLUMN person DROP DEFAULT,
            ADD UNIQUE (person, device, sequence),
            ADD FOREIGN KEY (person, device) REFERENCES trackee.device (timeline, name);
        ALTER TABLE trackee.change ALTER COLUMN id DROP DEFAULT;
        DROP SEQUENCE trackee.change_id_seq;
        ALTER TABLE trackee.change ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY;
        SELECT setval(pg_get_serial_sequence('trackee.change', 'id'),
                      (SELECT coalesce(max(id), 0) + 1 FROM trackee.change), false);

        CREATE TABLE trackee.person (
            name text PRIMARY KEY,
            devices integer NOT NULL DEFAULT 20 CHECK (devices BETWEEN 0 AND 999),
            channel text NOT NULL UNIQUE DEFAULT ('trackee_' || replace(gen_random_uuid()::text, '-', ''))
        );

        -- Membership in trackee_person, direct or through other roles; a
        -- superuser is no person for it (pg_has_role would say it is).
        CREATE FUNCTION trackee.is_person(who text) RETURNS boolean
        LANGUAGE sql STABLE SET search_path = pg_catalog, pg_temp AS $f$
            WITH RECURSIVE under(oid) AS (
                SELECT m.roleid FROM pg_auth_members m JOIN pg_roles r ON r.oid = m.member WHERE r.rolname = who
                UNION SELECT m.roleid FROM pg_auth_members m JOIN under u ON m.member = u.oid)
            SELECT EXISTS (SELECT 1 FROM under u JOIN pg_roles g ON g.oid = u.oid WHERE g.rolname = 'trackee_person')
        $f$;

        -- The roles an older hub names become persons; superusers and the
        -- administrator running this stay what they are.
        DO $$
        DECLARE
            who text;
        BEGIN
            FOR who IN
                SELECT owner FROM trackee.device UNION SELECT person FROM trackee.change
                UNION SELECT owner FROM trackee.share UNION SELECT grantee FROM trackee.share
            LOOP
                CONTINUE WHEN NOT EXISTS (
                    SELECT 1 FROM pg_roles r WHERE r.rolname = who AND NOT r.rolsuper AND r.rolname <> current_user
                      AND r.rolname NOT IN ('trackee_owner', 'trackee_person'));
                INSERT INTO trackee.person (name) VALUES (who) ON CONFLICT (name) DO NOTHING;
                IF NOT trackee.is_person(who) THEN
                    EXECUTE format('GRANT trackee_person TO %I', who);
                END IF;
            END LOOP;
        END $$;

        -- The one way a person registers a device: for themselves
        -- (session_user: inside this function current_user is its owner),
        -- in their own timeline or a copy of one shared with them, within
        -- their limit, and never taking the numbers the timeline's owner
        -- may still need. Registrations of one person, and in one
        -- timeline, take turns.
        CREATE FUNCTION trackee.register(device_name text, store_token text, timeline_name text DEFAULT NULL)
        RETURNS integer LANGUAGE plpgsql SECURITY DEFINER SET search_path = trackee, pg_temp AS $f$
        DECLARE
            caller text := session_user;
            whose text := coalesce(timeline_name, session_user);
            held record;
            allowed integer;
            taken integer;
            given integer;
            unused integer;
            kept integer;
        BEGIN
            IF NOT trackee.is_person(caller) THEN
                RAISE EXCEPTION USING ERRCODE = 'TK001', MESSAGE = format(
                    '%s is not a person on this hub; its administrator makes each person''s role a member of '
                    'trackee_person', caller);
            END IF;
            -- A device's own name is at most 64 long; a copy's adds the
            -- owner's role.
            IF device_name IS NULL OR device_name !~ '^[A-Za-z0-9._-]{1,128}$' THEN
                RAISE EXCEPTION USING ERRCODE = 'TK001', MESSAGE = format(
                    '%s is not a device name: letters, digits, ".", "-" and "_", at most 128',
                    coalesce(device_name, 'null'));
            END IF;
            IF store_token IS NULL OR store_token = '' THEN
                RAISE EXCEPTION USING ERRCODE = 'TK001', MESSAGE = format(
                    'device %s gave no store token; trackee hub sync registers a device with its store''s',
                    device_name);
            END IF;
            IF whose <> caller THEN
                IF NOT EXISTS (SELECT 1 FROM share s WHERE s.owner = whose AND s.grantee = caller) THEN
                    RAISE EXCEPTION USING ERRCODE = 'TK001', MESSAGE = format(
                        '%s does not share their timeline with you; they can with trackee hub grant %s --read',
                        whose, caller);
                END IF;
                IF right(device_name, length(whose) + 1) <> '.' || whose THEN
                    RAISE EXCEPTION USING ERRCODE = 'TK001', MESSAGE = format(
                        'a device that keeps a copy of %s''s timeline is named DEVICE.%s, and %s is not',
                        whose, whose, device_name);
                END IF;
            END IF;
            -- Keys "trac" and "trad" in ASCII, as numbers: the caller's
            -- registrations, then the timeline's (always in that order).
            PERFORM pg_advisory_xact_lock(1953653091, hashtext(caller));
            PERFORM pg_advisory_xact_lock(1953653092, hashtext(whose));
            SELECT d.owner, d.store, d.number INTO held FROM device d WHERE d.timeline = whose AND d.name = device_name;
            IF FOUND THEN
                IF held.owner <> caller OR held.store IS DISTINCT FROM store_token THEN
                    RAISE EXCEPTION USING ERRCODE = 'TK001', MESSAGE = format(
                        'the hub has a device named %s already, from another store; give this device another name '
                        '(hub.device in the settings)', device_name);
                END IF;
                RETURN held.number;
            END IF;
            INSERT INTO person (name) VALUES (caller) ON CONFLICT (name) DO NOTHING;
            INSERT INTO person (name) VALUES (whose) ON CONFLICT (name) DO NOTHING;
            SELECT p.devices INTO allowed FROM person p WHERE p.name = caller;
            SELECT count(*) INTO taken FROM device d WHERE d.owner = caller;
            IF taken >= allowed THEN
                RAISE EXCEPTION USING ERRCODE = 'TK001', MESSAGE = format(
                    'you have registered %s devices on the hub, your limit; its administrator can raise it '
                    '(trackee hub limit %s N)', taken, caller);
            END IF;
            SELECT min(n) INTO given FROM generate_series(1, 999) n
            WHERE NOT EXISTS (SELECT 1 FROM device d WHERE d.timeline = whose AND d.number = n);
            IF given IS NULL THEN
                RAISE EXCEPTION USING ERRCODE = 'TK001', MESSAGE = format(
                    '%s''s timeline has no device number left: all 999 are taken', whose);
            END IF;
            IF whose <> caller THEN
                SELECT 999 - count(*) INTO unused FROM device d WHERE d.timeline = whose;
                SELECT greatest(p.devices - (SELECT count(*) FROM device d WHERE d.owner = whose), 0) INTO kept
                FROM person p WHERE p.name = whose;
                IF unused <= kept THEN
                    RAISE EXCEPTION USING ERRCODE = 'TK001', MESSAGE = format(
                        'the device numbers left in %s''s timeline are kept for %s''s own devices, so no more '
                        'copies of it can join the hub', whose, whose);
                END IF;
            END IF;
            INSERT INTO device (name, owner, timeline, number, store) VALUES (device_name, caller, whose, given, store_token);
            RETURN given;
        END
        $f$;

        -- The channel a person's devices hear of pushes to their timeline
        -- on: unguessable, and readable by that person alone.
        CREATE FUNCTION trackee.channel() RETURNS text
        LANGUAGE plpgsql SECURITY DEFINER SET search_path = trackee, pg_temp AS $f$
        BEGIN
            IF NOT trackee.is_person(session_user) THEN
                RAISE EXCEPTION USING ERRCODE = 'TK001', MESSAGE = format(
                    '%s is not a person on this hub; its administrator makes each person''s role a member of '
                    'trackee_person', session_user);
            END IF;
            INSERT INTO person (name) VALUES (session_user) ON CONFLICT (name) DO NOTHING;
            RETURN (SELECT p.channel FROM person p WHERE p.name = session_user);
        END
        $f$;

        -- Inserts into change take turns, whoever makes them (the key is
        -- "trackeP" in ASCII, as a number): the ids
        -- the hub hands out then become visible in their order, and a
        -- pull's cursor never passes one still being written.
        CREATE FUNCTION trackee.change_turn() RETURNS trigger
        LANGUAGE plpgsql SET search_path = trackee, pg_temp AS $f$
        BEGIN
            PERFORM pg_advisory_xact_lock(32776859903812944);
            RETURN NULL;
        END
        $f$;
        CREATE TRIGGER change_turn BEFORE INSERT ON trackee.change
            FOR EACH STATEMENT EXECUTE FUNCTION trackee.change_turn();

        -- Each timeline written is told on its owner's channel, with
        -- nothing in the payload.
        CREATE FUNCTION trackee.change_told() RETURNS trigger
        LANGUAGE plpgsql SECURITY DEFINER SET search_path = trackee, pg_temp AS $f$
        DECLARE
            told text;
        BEGIN
            FOR told IN SELECT DISTINCT p.channel FROM written w JOIN person p ON p.name = w.person LOOP
                PERFORM pg_notify(told, '');
            END LOOP;
            RETURN NULL;
        END
        $f$;
        CREATE TRIGGER change_told AFTER INSERT ON trackee.change
            REFERENCING NEW TABLE AS written FOR EACH STATEMENT EXECUTE FUNCTION trackee.change_told();

        -- A share taken back takes the grantee's copies of that timeline
        -- with it (those that wrote nothing into it): their numbers are
        -- free again, they no longer count against the grantee's limit,
        -- and a new share registers new ones.
        CREATE FUNCTION trackee.share_revoked() RETURNS trigger
        LANGUAGE plpgsql SECURITY DEFINER SET search_path = trackee, pg_temp AS $f$
        BEGIN
            BEGIN
                DELETE FROM device d
                WHERE d.owner = OLD.grantee AND d.timeline = OLD.owner AND d.owner <> d.timeline
                  AND NOT EXISTS (SELECT 1 FROM change c WHERE c.person = d.timeline AND c.device = d.name);
            EXCEPTION WHEN foreign_key_violation THEN
                -- A push into the copy was committed meanwhile: it stays.
                NULL;
            END;
            RETURN NULL;
        END
        $f$;
        CREATE TRIGGER share_revoked AFTER DELETE ON trackee.share
            FOR EACH ROW EXECUTE FUNCTION trackee.share_revoked();

        ALTER TABLE trackee.trackee_migration OWNER TO trackee_owner;
        ALTER TABLE trackee.device OWNER TO trackee_owner;
        ALTER TABLE trackee.change OWNER TO trackee_owner;
        ALTER TABLE trackee.share OWNER TO trackee_owner;
        ALTER TABLE trackee.person OWNER TO trackee_owner;
        ALTER FUNCTION trackee.is_person(text) OWNER TO trackee_owner;
        ALTER FUNCTION trackee.register(text, text, text) OWNER TO trackee_owner;
        ALTER FUNCTION trackee.channel() OWNER TO trackee_owner;
        ALTER FUNCTION trackee.change_turn() OWNER TO trackee_owner;
        ALTER FUNCTION trackee.change_told() OWNER TO trackee_owner;
        ALTER FUNCTION trackee.share_revoked() OWNER TO trackee_owner;
        ALTER SCHEMA trackee OWNER TO trackee_owner;

        DROP POLICY share_seen ON trackee.share;
        DROP POLICY share_given ON trackee.share;
        DROP POLICY share_changed ON trackee.share;
        DROP POLICY share_taken ON trackee.share;
        DROP POLICY change_read ON trackee.change;
        DROP POLICY change_write ON trackee.change;
        DROP POLICY device_seen ON trackee.device;
        DROP POLICY device_own ON trackee.device;

        ALTER TABLE trackee.trackee_migration ENABLE ROW LEVEL SECURITY;
        ALTER TABLE trackee.trackee_migration FORCE ROW LEVEL SECURITY;
        ALTER TABLE trackee.device ENABLE ROW LEVEL SECURITY;
        ALTER TABLE trackee.device FORCE ROW LEVEL SECURITY;
        ALTER TABLE trackee.change ENABLE ROW LEVEL SECURITY;
        ALTER TABLE trackee.change FORCE ROW LEVEL SECURITY;
        ALTER TABLE trackee.share ENABLE ROW LEVEL SECURITY;
        ALTER TABLE trackee.share FORCE ROW LEVEL SECURITY;
        ALTER TABLE trackee.person ENABLE ROW LEVEL SECURITY;
        ALTER TABLE trackee.person FORCE ROW LEVEL SECURITY;

        -- trackee_owner is bound too (FORCE); the functions above act as
        -- it, for any person, and check who that is themselves.
        CREATE POLICY migration_trackee ON trackee.trackee_migration TO trackee_owner USING (true) WITH CHECK (true);
        CREATE POLICY device_trackee ON trackee.device TO trackee_owner USING (true) WITH CHECK (true);
        CREATE POLICY change_trackee ON trackee.change TO trackee_owner USING (true) WITH CHECK (true);
        CREATE POLICY share_trackee ON trackee.share TO trackee_owner USING (true) WITH CHECK (true);
        CREATE POLICY person_trackee ON trackee.person TO trackee_owner USING (true) WITH CHECK (true);

        CREATE POLICY migration_seen ON trackee.trackee_migration FOR SELECT TO trackee_person USING (true);
        -- A person sees their own devices, the copies others keep of their
        -- timeline, and the devices of those who share theirs with them.
        CREATE POLICY device_seen ON trackee.device FOR SELECT TO trackee_person USING (
            owner = current_user OR timeline = current_user
            OR (owner = timeline AND timeline IN (SELECT s.owner FROM trackee.share s WHERE s.grantee = current_user)));
        CREATE POLICY change_read ON trackee.change FOR SELECT TO trackee_person USING (
            person = current_user OR person IN (SELECT s.owner FROM trackee.share s WHERE s.grantee = current_user));
        -- Under a device of the writer's own, into a timeline that is
        -- theirs or shared with them for writing.
        CREATE POLICY change_write ON trackee.change FOR INSERT TO trackee_person WITH CHECK (
            EXISTS (SELECT 1 FROM trackee.device d
                    WHERE d.timeline = change.person AND d.name = change.device AND d.owner = current_user)
            AND (person = current_user
                 OR person IN (SELECT s.owner FROM trackee.share s WHERE s.grantee = current_user AND s.level = 'write')));
        CREATE POLICY share_seen ON trackee.share FOR SELECT TO trackee_person
            USING (owner = current_user OR grantee = current_user);
        CREATE POLICY share_given ON trackee.share FOR INSERT TO trackee_person WITH CHECK (owner = current_user);
        CREATE POLICY share_changed ON trackee.share FOR UPDATE TO trackee_person
            USING (owner = current_user) WITH CHECK (owner = current_user);
        CREATE POLICY share_taken ON trackee.share FOR DELETE TO trackee_person USING (owner = current_user);
        CREATE POLICY person_self ON trackee.person FOR SELECT TO trackee_person USING (name = current_user);

        REVOKE ALL ON SCHEMA trackee FROM PUBLIC;
        REVOKE ALL ON ALL TABLES IN SCHEMA trackee FROM PUBLIC;
        REVOKE ALL ON ALL SEQUENCES IN SCHEMA trackee FROM PUBLIC;
        REVOKE ALL ON ALL FUNCTIONS IN SCHEMA trackee FROM PUBLIC;
        GRANT USAGE ON SCHEMA trackee TO trackee_person;
        GRANT SELECT ON trackee.trackee_migration TO trackee_person;
        GRANT SELECT (name, owner, timeline, number, registered) ON trackee.device TO trackee_person;
        GRANT SELECT ON trackee.change TO trackee_person;
        GRANT INSERT (person, device, sequence, clock, kind, body) ON trackee.change TO trackee_person;
        GRANT SELECT, INSERT, UPDATE, DELETE ON trackee.share TO trackee_person;
        GRANT SELECT ON trackee.person TO trackee_person;
        GRANT EXECUTE ON FUNCTION trackee.register(text, text, text), trackee.channel() TO trackee_person;
        """

    /// What is left to apply to a hub that has `applied`, or the first
    /// migration it has that this list does not know.
    public static func pending(after applied: Set<String>) -> Result<[Migration], UnknownMigration> {
        let known = Set(migrations.map(\.id))
        if let unknown = applied.subtracting(known).sorted().first { return .failure(UnknownMigration(id: unknown)) }
        return .success(migrations.filter { !applied.contains($0.id) })
    }

    public struct UnknownMigration: Error, Equatable {
        public let id: String
    }
}
