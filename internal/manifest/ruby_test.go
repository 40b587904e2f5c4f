package manifest

import "testing"

func TestParseRuby(t *testing.T) {
	runParse(t, []parseCase{
		{
			name: "Gemfile: constraints, group blocks and options, other blocks",
			file: "Gemfile",
			text: `source 'https://rubygems.org'
ruby '3.3.0'

gem 'rails', '~> 7.1', '>= 7.1.2'
gem "pg"  # the database
gem 'bootsnap', require: false

group :development, :test do
  gem 'rspec-rails'
end

group :test do
  platforms :mri do
    gem 'simplecov'
  end
  gem 'capybara'
end

gem 'rubocop', group: :development
gem 'puma', groups: [:default, :development]
# gem 'commented'
`,
			want: &Manifest{Format: Gemfile, Ecosystem: EcoRuby, Dependencies: []Dependency{
				{Name: "rails", Version: "~> 7.1, >= 7.1.2", Scope: ScopeRuntime},
				{Name: "pg", Scope: ScopeRuntime},
				{Name: "bootsnap", Scope: ScopeRuntime},
				{Name: "rspec-rails", Scope: ScopeDev},
				{Name: "simplecov", Scope: ScopeTest},
				{Name: "capybara", Scope: ScopeTest},
				{Name: "rubocop", Scope: ScopeDev},
				{Name: "puma", Scope: ScopeRuntime},
			}},
		},
		{
			name: "gemspec name and dependencies",
			file: "acme.gemspec",
			text: `Gem::Specification.new do |spec|
  spec.name    = "acme"
  spec.version = Acme::VERSION
  spec.add_dependency "rack", ">= 2", "< 4"
  spec.add_runtime_dependency("json")
  spec.add_development_dependency "rspec", "~> 3.12"
end
`,
			want: &Manifest{Format: Gemspec, Ecosystem: EcoRuby, Name: "acme", Dependencies: []Dependency{
				{Name: "rack", Version: ">= 2, < 4", Scope: ScopeRuntime},
				{Name: "json", Scope: ScopeRuntime},
				{Name: "rspec", Version: "~> 3.12", Scope: ScopeDev},
			}},
		},
	})
}
