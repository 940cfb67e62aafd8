-- An audit log (schema version 5) as dealer made it while its migrations were SQL text
-- alone (before sqlite-utils made its plain indexes): 7 records, by `dealer paigow
-- settle`, `dealer round examples/round.yaml` and `dealer paigow set`; written by
-- sqlite3's iterdump.
BEGIN TRANSACTION;
CREATE TABLE record_seats (
                record_id INTEGER NOT NULL REFERENCES records(id),
                seat INTEGER NOT NULL CHECK (typeof(seat) = 'integer'),
                patron TEXT,
                PRIMARY KEY (record_id, seat)
            );
INSERT INTO "record_seats" VALUES(1,3,'P-7');
INSERT INTO "record_seats" VALUES(4,1,NULL);
INSERT INTO "record_seats" VALUES(4,4,NULL);
CREATE TABLE records (
                id INTEGER PRIMARY KEY CHECK (typeof(id) = 'integer' AND id > 0),
                recorded_at TEXT NOT NULL,
                kind TEXT NOT NULL,
                game TEXT NOT NULL,
                action TEXT NOT NULL,
                table_id TEXT NOT NULL,
                seat INTEGER CHECK (seat IS NULL OR typeof(seat) = 'integer'),
                user_id TEXT NOT NULL,
                role TEXT NOT NULL,
                input_text TEXT NOT NULL,
                cards TEXT NOT NULL,
                result TEXT NOT NULL,
                explanation TEXT NOT NULL,
                settings TEXT NOT NULL,
                links_to INTEGER REFERENCES records(id),
                reason TEXT,
                software_version TEXT NOT NULL,
                prev_hash TEXT NOT NULL,
                hash TEXT NOT NULL
            );
INSERT INTO "records" VALUES(1,'2026-11-27T06:24:06.504215Z','ruling','paigow','settle','PG-1',3,'d-1','dealer','dealer Ks Kd 4c 4h As 9d 2c | player Qs Qh Jc Jd 8s 3h 2d','["Ks","Kd","4c","4h","As","9d","2c","Qs","Qh","Jc","Jd","8s","3h","2d"]','{"base":{"dealer":{"high":{"cards":["Ks","Kd","4h","4c","2c"],"category":"two-pair","description":"two pair, kings and fours, two kicker"},"low":{"cards":["As","9d"],"category":"high-card","description":"ace-nine"},"rule":"trump-plaza v1 §3c: A low and a high pair with an ace to play low — keep both pairs high, the two highest singletons low."},"dealer_pai_gow":null,"foul":false,"net":0,"odds":"one hand each","outcome":"push","player":{"high":{"cards":["Qs","Qh","8s","3h","2d"],"category":"one-pair","description":"pair of queens, 8-3-2 kickers"},"low":{"cards":["Jd","Jc"],"category":"pair","description":"pair of jacks"},"set_by":"house-way"},"wager":25},"bonuses":[{"amount":5,"capped":false,"caps":[],"event":null,"event_cards":[],"hand":"own","kind":"no-event","meter":null,"net":-5,"not_offered":[],"pays":"no event","paytable":"PT-FLT-EC-ET-01","row":null,"row_number":null,"seat":3,"uncapped_net":-5,"units":null,"wager":"treasure"},{"amount":1,"capped":false,"caps":[],"event":null,"event_cards":[],"hand":"own","kind":"no-event","meter":null,"net":-1,"not_offered":[],"pays":"no event","paytable":"PT-BJS-EC-ET-01","row":null,"row_number":null,"seat":3,"uncapped_net":-1,"units":1,"wager":"progressive_treasure"}],"dealer":{"cards":["Ks","Kd","4h","4c","2c","As","9d"],"events":{"cards":["Ks","Kd","4c","4h","As","9d","2c"],"emperors_treasure":null,"envy":null,"event_cards":{},"events":[],"pai_gow":null,"pai_gow_insurance":null,"progressive_insurance":null,"progressive_treasure":null},"high":{"cards":["Ks","Kd","4h","4c","2c"],"category":"two-pair","description":"two pair, kings and fours, two kicker"},"low":{"cards":["As","9d"],"category":"high-card","description":"ace-nine"},"pai_gow":null,"rule":"trump-plaza v1 §3c: A low and a high pair with an ace to play low — keep both pairs high, the two highest singletons low."},"events":{"cards":["Qs","Qh","Jc","Jd","8s","3h","2d"],"emperors_treasure":null,"envy":null,"event_cards":{},"events":[],"pai_gow":null,"pai_gow_insurance":null,"progressive_insurance":null,"progressive_treasure":null},"meters":{"after":{"progressive_insurance":5000,"progressive_treasure":10000.25},"before":{"progressive_insurance":5000,"progressive_treasure":10000},"contributions":{"progressive_insurance":0,"progressive_treasure":0.25}},"patron":"P-7","progressive_hits":[],"seat":3,"total_net":-6}','["dealer set by trump-plaza v1 §3c: A low and a high pair with an ace to play low — keep both pairs high, the two highest singletons low.","high: dealer two pair, kings and fours, two kicker beats player pair of queens, 8-3-2 kickers","low: player pair of jacks beats dealer ace-nine","base wager $25: push, one hand each: $0","seat 3: Emperor''s Treasure PT-FLT-EC-ET-01, the hand makes no bonus event (no pai gow, nothing from three pair up): the $5 wager loses = -$5","seat 3: Emperor''s Treasure Progressive PT-BJS-EC-ET-01, the hand makes no bonus event (no pai gow, nothing from three pair up): the $1 wager loses = -$1","Emperor''s Treasure Progressive meter: $10,000 + contributions $0.25 → $10,000.25"]','{"caps":{"envy":{"per_hand":null,"per_round":null},"insurance":{"per_hand":null,"per_round":null},"progressive_insurance":{"per_hand":null,"per_round":null},"progressive_treasure":{"per_hand":null,"per_round":null},"treasure":{"per_hand":null,"per_round":null}},"dealer_pai_gow":"half-pay","envy_minimum":5,"envy_table":"E01","foul":"forfeit","house_way":{"name":"trump-plaza","version":"1"},"insurance_table":"PT-FLT-EC-PGI-01","limits":{"base":{"max":5000,"min":5},"insurance":{"max":500,"min":1},"progressive_insurance":{"max":1,"min":1,"unit":1},"progressive_treasure":{"max":1,"min":1,"unit":1},"treasure":{"max":500,"min":1}},"meters":{"progressive_insurance":{"cap":100000,"contribution":0.25,"seed":5000},"progressive_treasure":{"cap":250000,"contribution":0.25,"seed":10000}},"offered":{"envy":true,"insurance":true,"progressive_insurance":true,"progressive_treasure":true,"treasure":true},"overrides":[],"paytables":{"envy":"E01","insurance":"PT-FLT-EC-PGI-01","progressive_insurance":"PT-BJS-EC-PGI-01","progressive_treasure":"PT-BJS-EC-ET-01","treasure":"PT-FLT-EC-ET-01"},"paytables_sha256":{"E01":"168e3dde4b4d402530490db3f3ec92f42e68a40a3bc47103aa686d56287499d1","PT-BJS-EC-ET-01":"58f8c68bfdbeb9103eef74230da3e65297267eb19ee53bb0ed9acf2d61bd8baa","PT-BJS-EC-PGI-01":"ee9fd1cb55c151864395ab6e70063c54d1fbf320e46cc79409ec66c9946d8a31","PT-FLT-EC-ET-01":"18714a1287b43a5e7b841ee20f6cc3e8d249bbb1f91c7b10fb77fa777fc891eb","PT-FLT-EC-PGI-01":"29b12904ca93d18c6f82ea012741b3ed55fcdce9c9b5084f4facb1c07174a02d"},"profile":"default","profile_sha256":"203ed752dd2da6ce951ea19478eaa0a347a03b1650a3a8689ddeff9d3a183b12","profile_source":"default","progressive_insurance_table":"PT-BJS-EC-PGI-01","progressive_treasure_table":"PT-BJS-EC-ET-01","rule_changes":"allowed","signoff_over":2500,"treasure_table":"PT-FLT-EC-ET-01","wheel":"second-highest"}',NULL,NULL,'0.2.0','0000000000000000000000000000000000000000000000000000000000000000','7f26ecd9e76ae472fb730ad2cd9ce2a1c7d4e62394d853a08383eb73d9c28897');
INSERT INTO "records" VALUES(2,'2026-11-27T06:24:06.504869Z','meter','paigow','move','PG-1',NULL,'d-1','dealer','','[]','{"delta":"5000","meter":"progressive_insurance","previous":null,"value":"5000"}','["Meter progressive_insurance at table PG-1: unset -> 5000 (ruling #1)"]','{}',1,'ruling #1','0.2.0','7f26ecd9e76ae472fb730ad2cd9ce2a1c7d4e62394d853a08383eb73d9c28897','eaefcfc26b61d38a8d0a7516fd5730fc3e687bc504775482738cc20a7806cdce');
INSERT INTO "records" VALUES(3,'2026-11-27T06:24:06.505088Z','meter','paigow','move','PG-1',NULL,'d-1','dealer','','[]','{"delta":"10000.25","meter":"progressive_treasure","previous":null,"value":"10000.25"}','["Meter progressive_treasure at table PG-1: unset -> 10000.25 (ruling #1)"]','{}',1,'ruling #1','0.2.0','eaefcfc26b61d38a8d0a7516fd5730fc3e687bc504775482738cc20a7806cdce','471186d9c706a239c5609f5a54361e08c7f9928b74c95bde1250180347f11e29');
INSERT INTO "records" VALUES(4,'2026-11-27T06:24:08.285444Z','ruling','paigow','round','PG-3',NULL,'d-1','dealer','# A table round: the dealer''s seven cards and each occupied seat (1-6) with its wagers, and
# either its seven cards (set by the House Way) or its own high and low hands.
# Settle it with:  dealer round examples/round.yaml
table: PG-3
dealer: As Kd 9c 7h 5s 3d 2c
seats:
  - seat: 1
    cards: Js Jd Ac Qh 8s 5d 3h
    wagers: {base: 25, treasure: 5, progressive_treasure: 1}
  - seat: 4
    high: Kc Kh 9d 6s 2h
    low: Qs Td
    wagers: {base: 10, insurance: 5, insurance_on_dealer: true}
','["As","Kd","9c","7h","5s","3d","2c","Js","Jd","Ac","Qh","8s","5d","3h","Kc","Kh","9d","6s","2h","Qs","Td"]','{"dealer":{"cards":["As","7h","5s","3d","2c","Kd","9c"],"events":{"cards":["As","Kd","9c","7h","5s","3d","2c"],"emperors_treasure":null,"envy":null,"event_cards":{"ace-high-pai-gow":["As","Kd","9c","7h","5s","3d","2c"]},"events":["ace-high-pai-gow"],"pai_gow":{"high":"A","one_color":false},"pai_gow_insurance":"ace-high-pai-gow","progressive_insurance":null,"progressive_treasure":null},"high":{"cards":["As","7h","5s","3d","2c"],"category":"high-card","description":"ace high, A-7-5-3-2"},"low":{"cards":["Kd","9c"],"category":"high-card","description":"king-nine"},"pai_gow":"ace-high","rule":"trump-plaza v1 §1: No pair — the highest card high, the second and third highest cards low."},"meters":{"after":{"progressive_insurance":5000,"progressive_treasure":10000.25},"before":{"progressive_insurance":5000,"progressive_treasure":10000},"contributions":{"progressive_insurance":0,"progressive_treasure":0.25}},"progressive_hits":[],"seats":[{"base":{"dealer":{"high":{"cards":["As","7h","5s","3d","2c"],"category":"high-card","description":"ace high, A-7-5-3-2"},"low":{"cards":["Kd","9c"],"category":"high-card","description":"king-nine"},"rule":"trump-plaza v1 §1: No pair — the highest card high, the second and third highest cards low."},"dealer_pai_gow":"ace-high","foul":false,"net":12.5,"odds":"1 to 2","outcome":"win","player":{"high":{"cards":["Js","Jd","8s","5d","3h"],"category":"one-pair","description":"pair of jacks, 8-5-3 kickers"},"low":{"cards":["Ac","Qh"],"category":"high-card","description":"ace-queen"},"set_by":"house-way"},"wager":25},"bonuses":[{"amount":5,"capped":false,"caps":[],"event":null,"event_cards":[],"hand":"own","kind":"no-event","meter":null,"net":-5,"not_offered":[],"pays":"no event","paytable":"PT-FLT-EC-ET-01","row":null,"row_number":null,"seat":1,"uncapped_net":-5,"units":null,"wager":"treasure"},{"amount":1,"capped":false,"caps":[],"event":null,"event_cards":[],"hand":"own","kind":"no-event","meter":null,"net":-1,"not_offered":[],"pays":"no event","paytable":"PT-BJS-EC-ET-01","row":null,"row_number":null,"seat":1,"uncapped_net":-1,"units":1,"wager":"progressive_treasure"}],"events":{"cards":["Js","Jd","Ac","Qh","8s","5d","3h"],"emperors_treasure":null,"envy":null,"event_cards":{},"events":[],"pai_gow":null,"pai_gow_insurance":null,"progressive_insurance":null,"progressive_treasure":null},"seat":1,"total_net":6.5},{"base":{"dealer":{"high":{"cards":["As","7h","5s","3d","2c"],"category":"high-card","description":"ace high, A-7-5-3-2"},"low":{"cards":["Kd","9c"],"category":"high-card","description":"king-nine"},"rule":"trump-plaza v1 §1: No pair — the highest card high, the second and third highest cards low."},"dealer_pai_gow":"ace-high","foul":false,"net":0,"odds":"one hand each","outcome":"push","player":{"high":{"cards":["Kh","Kc","9d","6s","2h"],"category":"one-pair","description":"pair of kings, 9-6-2 kickers"},"low":{"cards":["Qs","Td"],"category":"high-card","description":"queen-ten"},"set_by":"player"},"wager":10},"bonuses":[{"amount":5,"capped":false,"caps":[],"event":"ace-high-pai-gow","event_cards":["As","Kd","9c","7h","5s","3d","2c"],"hand":"dealer","kind":"to-1","meter":null,"net":10,"not_offered":[],"pays":"2 to 1","paytable":"PT-FLT-EC-PGI-01","row":"Ace-High Pai Gow","row_number":6,"seat":4,"uncapped_net":10,"units":null,"wager":"insurance"}],"events":{"cards":["Kc","Kh","9d","6s","2h","Qs","Td"],"emperors_treasure":null,"envy":null,"event_cards":{},"events":[],"pai_gow":null,"pai_gow_insurance":null,"progressive_insurance":null,"progressive_treasure":null},"seat":4,"total_net":10}],"table":"PG-3","total_net":16.5}','["dealer set by trump-plaza v1 §1: No pair — the highest card high, the second and third highest cards low.","dealer: A♠ 7♥ 5♠ 3♦ 2♣ / K♦ 9♣","seat 1: dealer has a pai gow, ace-high","seat 1: high: player pair of jacks, 8-5-3 kickers beats dealer ace high, A-7-5-3-2","seat 1: low: player ace-queen beats dealer king-nine","seat 1: both hands win against a dealer pai gow: pays 1 to 2","seat 1: base wager $25: win, 1 to 2: +$12.50","seat 4: dealer has a pai gow, ace-high","seat 4: high: player pair of kings, 9-6-2 kickers beats dealer ace high, A-7-5-3-2","seat 4: low: dealer king-nine beats player queen-ten","seat 4: base wager $10: push, one hand each: $0","seat 1: Emperor''s Treasure PT-FLT-EC-ET-01, the hand makes no bonus event (no pai gow, nothing from three pair up): the $5 wager loses = -$5","seat 1: Emperor''s Treasure Progressive PT-BJS-EC-ET-01, the hand makes no bonus event (no pai gow, nothing from three pair up): the $1 wager loses = -$1","seat 4: Pai Gow Insurance PT-FLT-EC-PGI-01 on the dealer''s hand (lammer), row Ace-High Pai Gow: 2 to 1 × $5 = +$10","Emperor''s Treasure Progressive meter: $10,000 + contributions $0.25 → $10,000.25","players'' total: +$16.50"]','{"caps":{"envy":{"per_hand":null,"per_round":null},"insurance":{"per_hand":null,"per_round":null},"progressive_insurance":{"per_hand":null,"per_round":null},"progressive_treasure":{"per_hand":null,"per_round":null},"treasure":{"per_hand":null,"per_round":null}},"dealer_pai_gow":"half-pay","envy_minimum":5,"envy_table":"E01","foul":"forfeit","house_way":{"name":"trump-plaza","version":"1"},"insurance_table":"PT-FLT-EC-PGI-01","limits":{"base":{"max":5000,"min":5},"insurance":{"max":500,"min":1},"progressive_insurance":{"max":1,"min":1,"unit":1},"progressive_treasure":{"max":1,"min":1,"unit":1},"treasure":{"max":500,"min":1}},"meters":{"progressive_insurance":{"cap":100000,"contribution":0.25,"seed":5000},"progressive_treasure":{"cap":250000,"contribution":0.25,"seed":10000}},"offered":{"envy":true,"insurance":true,"progressive_insurance":true,"progressive_treasure":true,"treasure":true},"overrides":[],"paytables":{"envy":"E01","insurance":"PT-FLT-EC-PGI-01","progressive_insurance":"PT-BJS-EC-PGI-01","progressive_treasure":"PT-BJS-EC-ET-01","treasure":"PT-FLT-EC-ET-01"},"paytables_sha256":{"E01":"168e3dde4b4d402530490db3f3ec92f42e68a40a3bc47103aa686d56287499d1","PT-BJS-EC-ET-01":"58f8c68bfdbeb9103eef74230da3e65297267eb19ee53bb0ed9acf2d61bd8baa","PT-BJS-EC-PGI-01":"ee9fd1cb55c151864395ab6e70063c54d1fbf320e46cc79409ec66c9946d8a31","PT-FLT-EC-ET-01":"18714a1287b43a5e7b841ee20f6cc3e8d249bbb1f91c7b10fb77fa777fc891eb","PT-FLT-EC-PGI-01":"29b12904ca93d18c6f82ea012741b3ed55fcdce9c9b5084f4facb1c07174a02d"},"profile":"default","profile_sha256":"203ed752dd2da6ce951ea19478eaa0a347a03b1650a3a8689ddeff9d3a183b12","profile_source":"default","progressive_insurance_table":"PT-BJS-EC-PGI-01","progressive_treasure_table":"PT-BJS-EC-ET-01","rule_changes":"allowed","signoff_over":2500,"treasure_table":"PT-FLT-EC-ET-01","wheel":"second-highest"}',NULL,NULL,'0.2.0','471186d9c706a239c5609f5a54361e08c7f9928b74c95bde1250180347f11e29','731a94d4e28b3eee2e55e917fb5dbdade04b15ce03fdbe5a1f577ff3bc3cde8c');
INSERT INTO "records" VALUES(5,'2026-11-27T06:24:08.286156Z','meter','paigow','move','PG-3',NULL,'d-1','dealer','','[]','{"delta":"5000","meter":"progressive_insurance","previous":null,"value":"5000"}','["Meter progressive_insurance at table PG-3: unset -> 5000 (ruling #4)"]','{}',4,'ruling #4','0.2.0','731a94d4e28b3eee2e55e917fb5dbdade04b15ce03fdbe5a1f577ff3bc3cde8c','93505de93ac272f0093276f94040cdd9dbbcd5c2c2939dd12d7e8da38bf57cca');
INSERT INTO "records" VALUES(6,'2026-11-27T06:24:08.286422Z','meter','paigow','move','PG-3',NULL,'d-1','dealer','','[]','{"delta":"10000.25","meter":"progressive_treasure","previous":null,"value":"10000.25"}','["Meter progressive_treasure at table PG-3: unset -> 10000.25 (ruling #4)"]','{}',4,'ruling #4','0.2.0','93505de93ac272f0093276f94040cdd9dbbcd5c2c2939dd12d7e8da38bf57cca','79dc8d5717d5b6c4dc05346e8b8b51bec311323d9541b6e250762db53f7f3405');
INSERT INTO "records" VALUES(7,'2026-11-27T06:24:09.004123Z','ruling','paigow','set','PG-2',NULL,'d-2','dealer','As Kd 9c 7h 5s 3d JK','["As","Kd","9c","7h","5s","3d","JK"]','{"clause":"2","high":["JK","As","7h","5s","3d"],"high_hand":{"cards":["JK","As","7h","5s","3d"],"category":"one-pair","description":"pair of aces, 7-5-3 kickers","joker_plays_as":"an ace"},"house_way":{"name":"trump-plaza","version":"1"},"low":["Kd","9c"],"low_hand":{"cards":["Kd","9c"],"category":"high-card","description":"king-nine"},"rule":"trump-plaza v1 §2: One pair — the pair high, the two highest other cards low."}','["trump-plaza v1 §2: One pair — the pair high, the two highest other cards low.","high: pair of aces, 7-5-3 kickers","low: king-nine"]','{"caps":{"envy":{"per_hand":null,"per_round":null},"insurance":{"per_hand":null,"per_round":null},"progressive_insurance":{"per_hand":null,"per_round":null},"progressive_treasure":{"per_hand":null,"per_round":null},"treasure":{"per_hand":null,"per_round":null}},"dealer_pai_gow":"half-pay","envy_minimum":5,"envy_table":"E01","foul":"forfeit","house_way":{"name":"trump-plaza","version":"1"},"insurance_table":"PT-FLT-EC-PGI-01","limits":{"base":{"max":5000,"min":5},"insurance":{"max":500,"min":1},"progressive_insurance":{"max":1,"min":1,"unit":1},"progressive_treasure":{"max":1,"min":1,"unit":1},"treasure":{"max":500,"min":1}},"meters":{"progressive_insurance":{"cap":100000,"contribution":0.25,"seed":5000},"progressive_treasure":{"cap":250000,"contribution":0.25,"seed":10000}},"offered":{"envy":true,"insurance":true,"progressive_insurance":true,"progressive_treasure":true,"treasure":true},"overrides":[],"profile":"default","profile_sha256":"203ed752dd2da6ce951ea19478eaa0a347a03b1650a3a8689ddeff9d3a183b12","profile_source":"default","progressive_insurance_table":"PT-BJS-EC-PGI-01","progressive_treasure_table":"PT-BJS-EC-ET-01","rule_changes":"allowed","signoff_over":2500,"treasure_table":"PT-FLT-EC-ET-01","wheel":"second-highest"}',NULL,NULL,'0.2.0','79dc8d5717d5b6c4dc05346e8b8b51bec311323d9541b6e250762db53f7f3405','44b6179fccb3f9fe95eb0e0c34f22355e99600487647ddd97f732fdb214b1501');
CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL);
INSERT INTO "schema_migrations" VALUES(1,'records: the hash-chained log and its append-only triggers','2026-11-27T06:24:06.219682Z');
INSERT INTO "schema_migrations" VALUES(2,'users: roles and supervisor PINs, one row per change, each tied to its record','2026-11-27T06:24:06.220012Z');
INSERT INTO "schema_migrations" VALUES(3,'indexes: searches by table, time, user and link, and the progressive meters','2026-11-27T06:24:06.220351Z');
INSERT INTO "schema_migrations" VALUES(4,'record_seats: the seats (and patron ids) each record involved, for seat searches','2026-11-27T06:24:06.220749Z');
INSERT INTO "schema_migrations" VALUES(5,'indexes: a linked progressive meter''s newest records','2026-11-27T06:24:06.220839Z');
CREATE TABLE users (
                record_id INTEGER PRIMARY KEY REFERENCES records(id),
                user_id TEXT NOT NULL,
                role TEXT NOT NULL CHECK (role IN ('dealer', 'supervisor', 'auditor')),
                active INTEGER NOT NULL CHECK (active IN (0, 1)),
                pin_hash TEXT
            );
CREATE TRIGGER records_no_update BEFORE UPDATE ON records
            BEGIN
                SELECT RAISE(ABORT, 'audit records cannot be changed: record an override or void');
            END;
CREATE TRIGGER records_no_delete BEFORE DELETE ON records
            BEGIN
                SELECT RAISE(ABORT, 'audit records cannot be deleted');
            END;
CREATE TRIGGER records_in_order BEFORE INSERT ON records
            WHEN NEW.id IS NOT (SELECT COALESCE(MAX(id), 0) + 1 FROM records)
              OR NEW.prev_hash IS NOT COALESCE(
                    (SELECT hash FROM records WHERE id = NEW.id - 1), '0000000000000000000000000000000000000000000000000000000000000000')
            BEGIN
                SELECT RAISE(ABORT, 'audit records are appended in order, each linked to the last');
            END;
CREATE TRIGGER users_no_update BEFORE UPDATE ON users
            BEGIN
                SELECT RAISE(ABORT, 'user history cannot be changed: record a new user change');
            END;
CREATE TRIGGER users_no_delete BEFORE DELETE ON users
            BEGIN
                SELECT RAISE(ABORT, 'user history cannot be deleted');
            END;
CREATE INDEX users_by_user ON users(user_id, record_id);
CREATE INDEX records_by_table ON records(table_id, seat, id);
CREATE INDEX records_by_time ON records(recorded_at);
CREATE INDEX records_by_user ON records(user_id, id);
CREATE INDEX records_by_kind ON records(kind, id);
CREATE INDEX records_by_link ON records(links_to) WHERE links_to IS NOT NULL;
CREATE INDEX records_meters
            ON records(table_id, json_extract(result, '$.meter'), id) WHERE kind = 'meter'
            ;
CREATE TRIGGER record_seats_no_update BEFORE UPDATE ON record_seats
            BEGIN
                SELECT RAISE(ABORT, 'the seat index cannot be changed');
            END;
CREATE TRIGGER record_seats_no_delete BEFORE DELETE ON record_seats
            BEGIN
                SELECT RAISE(ABORT, 'the seat index cannot be deleted from');
            END;
CREATE INDEX record_seats_by_seat ON record_seats(seat, record_id);
CREATE INDEX record_seats_by_patron
            ON record_seats(patron, record_id) WHERE patron IS NOT NULL
            ;
CREATE TRIGGER record_seats_of_the_newest BEFORE INSERT ON record_seats
            WHEN NEW.record_id IS NOT (SELECT MAX(id) FROM records)
            BEGIN
                SELECT RAISE(ABORT, 'the seat index is written with its record, and only then');
            END;
CREATE INDEX records_linked_meters
            ON records(json_extract(result, '$.link'), id) WHERE kind = 'meter'
            ;
COMMIT;
PRAGMA user_version = 5;
