CREATE TABLE orders (id SERIAL PRIMARY KEY, total_cents INTEGER NOT NULL);
-- down
DROP TABLE orders;
